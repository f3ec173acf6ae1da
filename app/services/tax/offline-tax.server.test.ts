import { describe, expect, it } from "vitest";
import { US_STATES, type UsState } from "~/utils/us-states";
import { createOfflineTaxService, OFFLINE_TAX_NAME, percentOf } from "./offline-tax.server";
import { STATE_TAX_RULES } from "./state-rates";
import { TAX_CODES, TaxError, type TaxCalculationInput, type TaxCalculationResult, type TaxLineInput } from "./types";

const NOW = new Date("2025-06-01T12:00:00Z");
const ZIPS: Partial<Record<UsState, string>> = {
  AK: "99501",
  CA: "94105",
  HI: "96813",
  IL: "60601",
  MO: "63101",
  NY: "10001",
  OR: "97201",
  TN: "37203",
  TX: "75201",
  UT: "84111",
  VA: "23219",
  WA: "98101",
};

const service = (registeredStates: UsState[] = ["CA", "NY", "TN", "WA"]) => createOfflineTaxService({ registeredStates, now: () => NOW });

const goods = (amountCents: number, reference = "0:grill", quantity = 1): TaxLineInput => ({
  reference,
  amountCents,
  quantity,
  taxCode: TAX_CODES.goods,
});
const food = (amountCents: number, reference = "1:love-rub"): TaxLineInput => ({
  reference,
  amountCents,
  quantity: 1,
  taxCode: TAX_CODES.food,
});

function order(state: UsState, lines: TaxLineInput[], shippingCents = 0, postalCode = ZIPS[state] ?? ""): TaxCalculationInput {
  return { lines, shippingCents, address: { line1: "1 Main St", city: "Somewhere", state, postalCode, country: "US" } };
}

async function calculated(result: Promise<TaxCalculationResult>) {
  const answer = await result;
  if (answer.status !== "calculated") throw new Error(`expected a calculation, got ${JSON.stringify(answer)}`);
  return answer.calculation;
}

describe("the offline tax table", () => {
  it("says it is a stand-in", () => {
    const tax = service();
    expect(tax).toMatchObject({ id: "offline", name: OFFLINE_TAX_NAME, isStandIn: true, registeredStates: ["CA", "NY", "TN", "WA"] });
  });

  it("taxes goods in California at the state rate plus the average local rate, and not its shipping", async () => {
    const calculation = await calculated(service().calculate(order("CA", [goods(10_000)], 1_500)));
    expect(calculation).toMatchObject({
      amountCents: 885,
      lines: [{ reference: "0:grill", taxCents: 885 }],
      shippingTaxCents: 0,
      taxabilityReason: null,
      jurisdictions: [
        { name: "California", level: "state", ratePercent: "7.25", amountCents: 725 },
        { name: "Local (state average)", level: "local", ratePercent: "1.60", amountCents: 160 },
      ],
    });
    expect(calculation.id).toMatch(/^taxcalc_offline_[0-9a-f]{24}$/);
    expect(calculation.expiresAt).toEqual(new Date(NOW.getTime() + 90 * 24 * 60 * 60 * 1000));
  });

  it("taxes shipping in New York at the general rate", async () => {
    const calculation = await calculated(service().calculate(order("NY", [goods(10_000)], 1_000)));
    expect(calculation).toMatchObject({ amountCents: 938, lines: [{ taxCents: 853 }], shippingTaxCents: 85 });
    expect(calculation.jurisdictions).toEqual([
      { name: "New York", level: "state", ratePercent: "4.00", amountCents: 440 },
      { name: "Local (state average)", level: "local", ratePercent: "4.53", amountCents: 498 },
    ]);
  });

  it("taxes groceries in Tennessee at the reduced state rate plus local, goods and shipping at the full one", async () => {
    const calculation = await calculated(service().calculate(order("TN", [goods(19_999), food(1_299)], 995)));
    expect(calculation.lines).toEqual([
      { reference: "0:grill", taxCents: 1_400 + 512 },
      { reference: "1:love-rub", taxCents: 52 + 33 },
    ]);
    expect(calculation.shippingTaxCents).toBe(70 + 25);
    expect(calculation.amountCents).toBe(2_092);
    expect(calculation.jurisdictions).toEqual([
      { name: "Tennessee", level: "state", ratePercent: "7.00", amountCents: 1_470 },
      { name: "Local (state average)", level: "local", ratePercent: "2.56", amountCents: 570 },
      { name: "Tennessee", level: "state", ratePercent: "4.00", amountCents: 52 },
    ]);
  });

  it("rounds half up per jurisdiction and line (Washington: 2.93% of $50.00 is 146.5 cents)", async () => {
    const calculation = await calculated(service().calculate(order("WA", [goods(5_000)], 1_000)));
    expect(calculation.lines).toEqual([{ reference: "0:grill", taxCents: 325 + 147 }]);
    expect(calculation.shippingTaxCents).toBe(65 + 29);
    expect(calculation.amountCents).toBe(566);
  });

  it("computes exactly in integers, where floating point drifts", () => {
    expect(percentOf(200, "7.25")).toBe(15);
    expect(percentOf(10_000, "4.225")).toBe(423);
    expect(percentOf(1_000, "6.875")).toBe(69);
    expect(percentOf(3, "0.125")).toBe(0);
    expect(percentOf(400, "0.125")).toBe(1);
    // 1.005 × 100 is 100.49999999999999 in floating point; 1.005% of 10,000 cents is 100.5, so 101.
    expect(percentOf(10_000, "1.005")).toBe(101);
    expect(percentOf(99_999_999_999, "9.999")).toBe(Number((99_999_999_999n * 9_999n + 50_000n) / 100_000n));
  });

  it("leaves groceries untaxed where they are exempt, and then shipping too", async () => {
    const calculation = await calculated(service().calculate(order("WA", [food(1_299)], 1_000)));
    expect(calculation).toMatchObject({ amountCents: 0, shippingTaxCents: 0, jurisdictions: [], taxabilityReason: "product_exempt" });
  });

  it("taxes only-grocery orders in Tennessee without taxing shipping (no line at the general rate)", async () => {
    const calculation = await calculated(service().calculate(order("TN", [food(1_299)], 995)));
    expect(calculation).toMatchObject({ amountCents: 85, shippingTaxCents: 0, taxabilityReason: null });
  });

  it("follows each kind of grocery rule", async () => {
    const tax = service(["AK", "HI", "IL", "MO", "UT", "VA"]);
    const groceryTax = async (state: UsState) => (await calculated(tax.calculate(order(state, [food(1_000)], 1_000)))).amountCents;
    expect(await groceryTax("HI")).toBe(40 + 5 + 40 + 5); // the full rate, and Hawaii taxes the shipping of it
    expect(await groceryTax("AK")).toBe(18); // local taxes only; Alaska does not tax shipping
    expect(await groceryTax("IL")).toBe(10);
    expect(await groceryTax("MO")).toBe(12 + 42);
    expect(await groceryTax("UT")).toBe(18 + 13);
    expect(await groceryTax("VA")).toBe(10);
  });

  it("names no state jurisdiction where the state rate is 0 (Alaska)", async () => {
    const calculation = await calculated(service(["AK"]).calculate(order("AK", [goods(10_000)])));
    expect(calculation.jurisdictions).toEqual([{ name: "Local (state average)", level: "local", ratePercent: "1.82", amountCents: 182 }]);
  });

  it("taxes the amounts as given: a discount is already taken off each line by the caller", async () => {
    // Two grills at $100.00 with 10% off: the line is taxed on $180.00.
    const calculation = await calculated(service().calculate(order("CA", [goods(18_000, "0:grill", 2)])));
    expect(calculation.amountCents).toBe(1_305 + 288);
  });

  it("keeps the lines in the order asked, and sums the jurisdictions over them", async () => {
    const lines = [goods(1_000, "0:a"), food(500, "1:b"), goods(2_000, "2:c")];
    const calculation = await calculated(service().calculate(order("NY", lines)));
    expect(calculation.lines.map((line) => line.reference)).toEqual(["0:a", "1:b", "2:c"]);
    expect(calculation.jurisdictions.reduce((sum, jurisdiction) => sum + jurisdiction.amountCents, 0)).toBe(calculation.amountCents);
  });

  it("charges nothing where the store is not registered: not_collecting", async () => {
    const calculation = await calculated(service().calculate(order("TX", [goods(10_000), food(500)], 1_000)));
    expect(calculation).toMatchObject({
      amountCents: 0,
      lines: [
        { reference: "0:grill", taxCents: 0 },
        { reference: "1:love-rub", taxCents: 0 },
      ],
      shippingTaxCents: 0,
      jurisdictions: [],
      taxabilityReason: "not_collecting",
    });
  });

  it("charges nothing in a state without sales tax: not_subject_to_tax", async () => {
    const calculation = await calculated(service(["OR"]).calculate(order("OR", [goods(10_000)], 1_000)));
    expect(calculation).toMatchObject({ amountCents: 0, taxabilityReason: "not_subject_to_tax" });
  });

  it("says why when a taxable order rounds to no tax", async () => {
    const calculation = await calculated(service().calculate(order("CA", [goods(1)])));
    expect(calculation).toMatchObject({ amountCents: 0, taxabilityReason: "standard_rated" });
  });

  it("refuses a ZIP code of another state, in words for the shopper", async () => {
    expect(await service().calculate(order("CA", [goods(10_000)], 0, "10001"))).toEqual({
      status: "address-invalid",
      message: "The ZIP code 10001 is not in California: check the state and the ZIP code.",
    });
    // Wherever the store collects or not: the address is wrong either way.
    expect((await service().calculate(order("TX", [goods(10_000)], 0, "10001"))).status).toBe("address-invalid");
  });

  it("refuses ZIP codes of no state, malformed ones and unknown states", async () => {
    for (const postalCode of ["09001", "00901", "96910", "1234", "ABCDE"]) {
      const result = await service().calculate(order("NY", [goods(100)], 0, postalCode));
      expect(result.status, postalCode).toBe("address-invalid");
    }
    const unknownState = await service().calculate({ ...order("NY", [goods(100)]), address: { ...order("NY", []).address, state: "PR" } });
    expect(unknownState.status).toBe("address-invalid");
  });

  it("takes ZIP+4 and a lower-case state code", async () => {
    const input = order("CA", [goods(10_000)], 0, "94105-1804");
    const calculation = await calculated(service().calculate({ ...input, address: { ...input.address, state: "ca" } }));
    expect(calculation.amountCents).toBe(885);
  });

  it("refuses what a caller must never send with a TaxError", async () => {
    const refused: TaxLineInput[][] = [
      [goods(-1)],
      [goods(10.5)],
      [{ ...goods(100), quantity: 0 }],
      [goods(100, "0:a"), goods(100, "0:a")],
      [goods(100, "")],
      [{ ...goods(100), taxCode: "txcd_00000000" as never }],
    ];
    for (const lines of refused) await expect(service().calculate(order("CA", lines))).rejects.toBeInstanceOf(TaxError);
    await expect(service().calculate(order("CA", [goods(100)], -5))).rejects.toBeInstanceOf(TaxError);
  });

  it("commits to a transaction named after the reference, with no line ids (it keeps nothing)", async () => {
    const tax = service();
    const { id } = await calculated(tax.calculate(order("CA", [goods(10_000)])));
    expect(await tax.commit({ calculationId: id, reference: "GR-1001", idempotencyKey: "k1" })).toEqual({
      transactionId: "tax_offline_GR-1001",
      lineItemIds: {},
    });
    await expect(tax.commit({ calculationId: "taxcalc_1Abc", reference: "GR-1001", idempotencyKey: "k1" })).rejects.toBeInstanceOf(
      TaxError,
    );
  });

  it("reverses in full or in part, taking any original line id", async () => {
    const tax = service();
    const original = "tax_offline_GR-1001";
    expect(
      await tax.reverse({ originalTransactionId: original, reference: "GR-1001-refund-1", idempotencyKey: "k2", mode: "full" }),
    ).toEqual({
      transactionId: "tax_offline_rev_GR-1001-refund-1",
      lineItemIds: {},
    });
    const partial = await tax.reverse({
      originalTransactionId: original,
      reference: "GR-1001-refund-2",
      idempotencyKey: "k3",
      mode: "partial",
      lines: [{ originalLineItemId: "anything", reference: "0:grill-return", amountCents: 5_000, taxCents: 443, quantity: 1 }],
      shipping: { amountCents: 1_000, taxCents: 85 },
    });
    expect(partial.transactionId).toBe("tax_offline_rev_GR-1001-refund-2");
  });

  it("refuses reversals that make no sense", async () => {
    const tax = service();
    const base = { originalTransactionId: "tax_offline_GR-1", reference: "GR-1-refund-1", idempotencyKey: "k" };
    await expect(tax.reverse({ ...base, mode: "partial" })).rejects.toBeInstanceOf(TaxError);
    await expect(tax.reverse({ ...base, originalTransactionId: "tax_1Stripe", mode: "full" })).rejects.toBeInstanceOf(TaxError);
    await expect(tax.reverse({ ...base, mode: "partial", shipping: { amountCents: -1, taxCents: 0 } })).rejects.toBeInstanceOf(TaxError);
  });
});

describe("the table of state rates", () => {
  it("has every state and DC, with rates it can compute with", () => {
    expect(Object.keys(STATE_TAX_RULES).sort()).toEqual([...US_STATES].sort());
    for (const [state, rule] of Object.entries(STATE_TAX_RULES)) {
      for (const rate of [rule.state, rule.local]) expect(rate, state).toMatch(/^\d{1,2}(\.\d{1,3})?$/);
    }
  });

  it("taxes shipping in the states TaxJar lists, and only there", () => {
    const taxed = Object.entries(STATE_TAX_RULES)
      .filter(([, rule]) => rule.shippingTaxed)
      .map(([state]) => state)
      .sort();
    expect(taxed.join(",")).toBe("AR,CT,DC,GA,HI,IN,KS,KY,MI,MN,MS,NC,ND,NE,NJ,NM,NY,OH,PA,RI,SC,SD,TN,TX,VT,WA,WI,WV");
  });
});
