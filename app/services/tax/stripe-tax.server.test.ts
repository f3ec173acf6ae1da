import { describe, expect, it } from "vitest";
import { parseForm, stripeError } from "../../../tests/fakes/stripe";
import { FAKE_STRIPE_TAX_KEY, startFakeStripeTax } from "../../../tests/fakes/stripe-tax";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { createStripeTaxService, STRIPE_TAX_ADDRESS_INVALID } from "./stripe-tax.server";
import { TAX_CODES, TaxError, type TaxCalculationInput, type TaxCalculationResult, type TaxLineInput } from "./types";

const fake = await startFakeForFile(startFakeStripeTax);

const service = (options: { timeoutMs?: number; secretKey?: string; apiBase?: string } = {}) =>
  createStripeTaxService({ secretKey: FAKE_STRIPE_TAX_KEY, apiBase: fake.url, timeoutMs: 2_000, maxNetworkRetries: 0, ...options });

const goods = (reference: string, amountCents: number, quantity = 1): TaxLineInput => ({
  reference,
  amountCents,
  quantity,
  taxCode: TAX_CODES.goods,
});

const order = (lines: TaxLineInput[], shippingCents = 0, postalCode = "90012"): TaxCalculationInput => ({
  lines,
  shippingCents,
  address: { line1: "200 N Spring St", city: "Los Angeles", state: "CA", postalCode, country: "US" },
});

const manyLines = (count: number) => Array.from({ length: count }, (_, index) => goods(`${index}:product-${index}`, 1_000 + index));

const form = (rawBody: string) => parseForm(rawBody) as Record<string, unknown>;

async function calculated(result: Promise<TaxCalculationResult>) {
  const answer = await result;
  if (answer.status !== "calculated") throw new Error(`expected a calculation, got ${JSON.stringify(answer)}`);
  return answer.calculation;
}

function registerLosAngeles() {
  fake.setRegistration("CA", "6.00", {
    stateName: "California",
    local: [
      { level: "county", displayName: "Los Angeles County", percent: "0.25" },
      { level: "district", displayName: "Los Angeles County District", percent: "2.25" },
    ],
  });
}

describe("Stripe Tax driver against the fake Stripe Tax API", () => {
  it("is no stand-in, and leaves the registrations to Stripe", () => {
    expect(service()).toMatchObject({ id: "stripe", name: "Stripe Tax", isStandIn: false, registeredStates: null });
  });

  describe("calculate", () => {
    it("sends the lines tax-exclusive in USD, the shipping address and the shipping cost, and expands the breakdowns", async () => {
      registerLosAngeles();
      await service().calculate(order([goods("0:grill", 10_000, 2), { ...goods("1:love-rub", 1_299), taxCode: TAX_CODES.food }], 1_500));

      const [request] = fake.requests;
      expect(request).toMatchObject({ method: "POST", path: "/v1/tax/calculations" });
      expect(request?.headers.authorization).toBe(`Bearer ${FAKE_STRIPE_TAX_KEY}`);
      expect(form(request!.rawBody)).toEqual({
        currency: "usd",
        line_items: {
          0: { amount: "10000", quantity: "2", reference: "0:grill", tax_code: "txcd_99999999", tax_behavior: "exclusive" },
          1: { amount: "1299", quantity: "1", reference: "1:love-rub", tax_code: "txcd_40060003", tax_behavior: "exclusive" },
        },
        customer_details: {
          address: { line1: "200 N Spring St", city: "Los Angeles", state: "CA", postal_code: "90012", country: "US" },
          address_source: "shipping",
        },
        shipping_cost: { amount: "1500", tax_code: "txcd_92010001", tax_behavior: "exclusive" },
        expand: { 0: "line_items.data.tax_breakdown", 1: "shipping_cost.tax_breakdown" },
      });
    });

    it("sends no shipping cost for free shipping", async () => {
      await service().calculate(order([goods("0:grill", 10_000)], 0));
      expect(form(fake.requests[0]!.rawBody)).not.toHaveProperty("shipping_cost");
    });

    it("answers each line's tax in the order asked, the shipping's, and each jurisdiction summed by level, name and rate", async () => {
      registerLosAngeles();
      const calculation = await calculated(service().calculate(order([goods("0:grill", 10_000), goods("1:cover", 2_500)], 1_000)));

      expect(calculation.id).toMatch(/^taxcalc_/);
      expect(calculation.lines).toEqual([
        { reference: "0:grill", taxCents: 600 + 25 + 225 },
        { reference: "1:cover", taxCents: 150 + 6 + 56 },
      ]);
      expect(calculation.shippingTaxCents).toBe(60 + 3 + 23);
      expect(calculation.amountCents).toBe(1_148);
      expect(calculation.taxabilityReason).toBeNull();
      expect(calculation.jurisdictions).toEqual([
        { name: "California", level: "state", ratePercent: "6.00", amountCents: 810 },
        { name: "Los Angeles County", level: "county", ratePercent: "0.25", amountCents: 34 },
        { name: "Los Angeles County District", level: "district", ratePercent: "2.25", amountCents: 304 },
      ]);
      const expiresAt = fake.calculations.get(calculation.id)!.expires_at;
      expect(calculation.expiresAt).toEqual(new Date(expiresAt * 1000));
      expect(expiresAt - Date.now() / 1000).toBeGreaterThan(89 * 24 * 60 * 60);
    });

    it("leaves an exempt product and untaxed shipping out of the jurisdictions", async () => {
      fake.setRegistration("CA", "7.25", { stateName: "California", exemptTaxCodes: [TAX_CODES.food], shippingTaxable: false });
      const calculation = await calculated(service().calculate(order([{ ...goods("0:love-rub", 1_299), taxCode: TAX_CODES.food }], 995)));
      expect(calculation).toMatchObject({ amountCents: 0, shippingTaxCents: 0, jurisdictions: [], taxabilityReason: "product_exempt" });
    });

    it("answers 0 with not_collecting where the merchant has no registration", async () => {
      const calculation = await calculated(service().calculate(order([goods("0:grill", 10_000)], 1_000)));
      expect(calculation).toMatchObject({
        amountCents: 0,
        lines: [{ reference: "0:grill", taxCents: 0 }],
        shippingTaxCents: 0,
        jurisdictions: [],
        taxabilityReason: "not_collecting",
      });
    });

    it("answers address-invalid, in words for the shopper, when Stripe cannot place the address", async () => {
      fake.markAddressInvalid("00000");
      expect(await service().calculate(order([goods("0:grill", 10_000)], 0, "00000"))).toEqual({
        status: "address-invalid",
        message: STRIPE_TAX_ADDRESS_INVALID,
      });
    });

    it("reads every line of a calculation of more than 100, page by page", async () => {
      registerLosAngeles();
      const lines = manyLines(205);
      const calculation = await calculated(service().calculate(order(lines)));

      expect(calculation.lines.map((line) => line.reference)).toEqual(lines.map((line) => line.reference));
      const stored = fake.calculations.get(calculation.id)!;
      expect(calculation.lines.map((line) => line.taxCents)).toEqual(stored.line_items.map((line) => line.amount_tax));
      expect(calculation.amountCents).toBe(stored.tax_amount_exclusive);
      const pages = fake.requests.filter((request) => request.method === "GET");
      expect(pages.map((request) => new URL(request.path, fake.url).pathname)).toEqual(
        Array(3).fill(`/v1/tax/calculations/${calculation.id}/line_items`),
      );
      expect(new URL(pages[1]!.path, fake.url).searchParams.get("starting_after")).toBe(stored.line_items[99]!.id);
      expect(calculation.jurisdictions.find((jurisdiction) => jurisdiction.level === "county")?.amountCents).toBeGreaterThan(0);
    });
  });

  describe("every failure becomes a TaxError", () => {
    const failures: Array<[string, () => void, number | undefined]> = [
      ["a 500", () => fake.respondWith(() => stripeError(500, "api_error", "Something went wrong on Stripe's end.")), 500],
      ["a 400 other than an address", () => fake.respondWith(() => stripeError(400, "invalid_request_error", "Invalid currency.")), 400],
      ["malformed JSON", () => fake.respondWith(200, "{not json"), undefined],
      ["a calculation without id", () => fake.respondWith(200, { object: "tax.calculation", tax_amount_exclusive: 0 }), undefined],
      [
        "a calculation with a fractional tax",
        () =>
          fake.respondWith(async (request, normal) => {
            const answer = await normal(request);
            return { ...answer, body: { ...(answer.body as object), tax_amount_exclusive: 12.5 } };
          }),
        undefined,
      ],
      [
        "lines whose taxes do not add up",
        () =>
          fake.respondWith(async (request, normal) => {
            const answer = await normal(request);
            return { ...answer, body: { ...(answer.body as object), tax_amount_exclusive: 1 } };
          }),
        undefined,
      ],
    ];
    for (const [name, arrange, status] of failures) {
      it(`on ${name}`, async () => {
        registerLosAngeles();
        arrange();
        const failure = await service()
          .calculate(order([goods("0:grill", 10_000)]))
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(TaxError);
        expect(failure).toMatchObject({ provider: "stripe", status });
      });
    }

    it("on a wrong API key (401)", async () => {
      await expect(service({ secretKey: "sk_test_wrong" }).calculate(order([goods("0:grill", 100)]))).rejects.toMatchObject({
        name: "TaxError",
        status: 401,
      });
    });

    it("on a time-out, soon after it", async () => {
      fake.answerSlowly(2_000);
      const started = Date.now();
      await expect(service({ timeoutMs: 200 }).calculate(order([goods("0:grill", 100)]))).rejects.toBeInstanceOf(TaxError);
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it("when nothing listens", async () => {
      await expect(service({ apiBase: "http://127.0.0.1:9" }).calculate(order([goods("0:grill", 100)]))).rejects.toBeInstanceOf(TaxError);
    });
  });

  describe("commit", () => {
    it("makes a transaction from the calculation under the idempotency key, with every line's id by reference", async () => {
      registerLosAngeles();
      const { id } = await calculated(service().calculate(order(manyLines(12), 1_000)));
      fake.requests.length = 0;

      const record = await service().commit({ calculationId: id, reference: "GR-1001", idempotencyKey: "tax-commit-GR-1001" });

      const [create] = fake.requests;
      expect(create).toMatchObject({ method: "POST", path: "/v1/tax/transactions/create_from_calculation" });
      expect(create?.headers["idempotency-key"]).toBe("tax-commit-GR-1001");
      expect(form(create!.rawBody)).toEqual({ calculation: id, reference: "GR-1001" });
      const transaction = fake.transactions.get(record.transactionId)!;
      expect(transaction).toMatchObject({ reference: "GR-1001", type: "transaction" });
      expect(record.lineItemIds).toEqual(Object.fromEntries(transaction.line_items.map((line) => [line.reference, line.id])));
      expect(Object.keys(record.lineItemIds)).toHaveLength(12);
    });

    it("gets the same transaction back for the same key (a retry commits once)", async () => {
      registerLosAngeles();
      const { id } = await calculated(service().calculate(order([goods("0:grill", 10_000)])));
      const commit = () => service().commit({ calculationId: id, reference: "GR-1002", idempotencyKey: "tax-commit-GR-1002" });
      const first = await commit();
      expect(await commit()).toEqual(first);
      expect(fake.transactions.size).toBe(1);
    });

    it("collects the line ids of a transaction of more than 100 lines, page by page", async () => {
      registerLosAngeles();
      const { id } = await calculated(service().calculate(order(manyLines(150))));
      const record = await service().commit({ calculationId: id, reference: "GR-1003", idempotencyKey: "tax-commit-GR-1003" });
      expect(Object.keys(record.lineItemIds)).toHaveLength(150);
      const transactionPages = fake.requests.filter((request) => request.path.startsWith(`/v1/tax/transactions/${record.transactionId}/`));
      expect(transactionPages).toHaveLength(2);
    });

    it("refuses a reference already used, an expired calculation and an id that is no calculation", async () => {
      registerLosAngeles();
      const first = await calculated(service().calculate(order([goods("0:grill", 10_000)])));
      const second = await calculated(service().calculate(order([goods("0:grill", 10_000)])));
      await service().commit({ calculationId: first.id, reference: "GR-1004", idempotencyKey: "k-1" });
      await expect(service().commit({ calculationId: second.id, reference: "GR-1004", idempotencyKey: "k-2" })).rejects.toMatchObject({
        name: "TaxError",
        status: 400,
      });

      fake.expireCalculation(second.id);
      await expect(service().commit({ calculationId: second.id, reference: "GR-1005", idempotencyKey: "k-3" })).rejects.toBeInstanceOf(
        TaxError,
      );

      const requestsBefore = fake.requests.length;
      await expect(
        service().commit({ calculationId: "taxcalc_offline_1", reference: "GR-1006", idempotencyKey: "k-4" }),
      ).rejects.toMatchObject({
        status: 404,
      });
      await expect(
        service().commit({ calculationId: "../v1/charges", reference: "GR-1006", idempotencyKey: "k-5" }),
      ).rejects.toBeInstanceOf(TaxError);
      expect(fake.requests).toHaveLength(requestsBefore + 1);
    });

    it("refuses an answer that is no transaction", async () => {
      fake.respondWith(200, { id: "txn_123", object: "tax.transaction" });
      await expect(service().commit({ calculationId: "taxcalc_123", reference: "GR-1", idempotencyKey: "k" })).rejects.toBeInstanceOf(
        TaxError,
      );
    });
  });

  describe("reverse", () => {
    async function committed(reference: string) {
      registerLosAngeles();
      const calculation = await calculated(service().calculate(order([goods("0:grill", 10_000), goods("1:cover", 2_500)], 1_000)));
      const record = await service().commit({ calculationId: calculation.id, reference, idempotencyKey: `commit-${reference}` });
      fake.requests.length = 0;
      return { calculation, record };
    }

    it("gives back part of a line and the shipping in negative amounts, under the idempotency key", async () => {
      const { calculation, record } = await committed("GR-2001");
      const grillLine = record.lineItemIds["0:grill"]!;

      const reversal = await service().reverse({
        originalTransactionId: record.transactionId,
        reference: "GR-2001-refund-1",
        idempotencyKey: "tax-refund-GR-2001-1",
        mode: "partial",
        lines: [{ originalLineItemId: grillLine, reference: "0:grill-return", amountCents: 5_000, taxCents: 425, quantity: 1 }],
        shipping: { amountCents: 1_000, taxCents: calculation.shippingTaxCents },
      });

      const [request] = fake.requests;
      expect(request).toMatchObject({ method: "POST", path: "/v1/tax/transactions/create_reversal" });
      expect(request?.headers["idempotency-key"]).toBe("tax-refund-GR-2001-1");
      expect(form(request!.rawBody)).toEqual({
        mode: "partial",
        original_transaction: record.transactionId,
        reference: "GR-2001-refund-1",
        line_items: {
          0: { original_line_item: grillLine, reference: "0:grill-return", amount: "-5000", amount_tax: "-425", quantity: "1" },
        },
        shipping_cost: { amount: "-1000", amount_tax: "-86" },
      });
      expect(reversal.transactionId).toMatch(/^tax_/);
      expect(fake.reversals.get(reversal.transactionId)).toMatchObject({
        type: "reversal",
        reversal: { original_transaction: record.transactionId },
        line_items: [{ amount: -5_000, amount_tax: -425, reversal: { original_line_item: grillLine } }],
        shipping_cost: { amount: -1_000, amount_tax: -86 },
      });
    });

    it("reverses in full without naming lines", async () => {
      const { record } = await committed("GR-2002");
      const reversal = await service().reverse({
        originalTransactionId: record.transactionId,
        reference: "GR-2002-refund-1",
        idempotencyKey: "tax-refund-GR-2002-1",
        mode: "full",
      });
      expect(form(fake.requests[0]!.rawBody)).toEqual({
        mode: "full",
        original_transaction: record.transactionId,
        reference: "GR-2002-refund-1",
      });
      const stored = fake.reversals.get(reversal.transactionId)!;
      expect(stored.line_items.map((line) => line.amount)).toEqual([-10_000, -2_500]);
      expect(stored.shipping_cost).toMatchObject({ amount: -1_000, amount_tax: -86 });
    });

    it("is refused more than what remains, a full reversal after a partial one, and a reference used before", async () => {
      const { record } = await committed("GR-2003");
      const grillLine = record.lineItemIds["0:grill"]!;
      const partial = (reference: string, amountCents: number) =>
        service().reverse({
          originalTransactionId: record.transactionId,
          reference,
          idempotencyKey: `${reference}-${amountCents}`,
          mode: "partial",
          lines: [{ originalLineItemId: grillLine, reference: "0:grill-return", amountCents, taxCents: 0, quantity: 1 }],
        });

      await partial("GR-2003-refund-1", 6_000);
      await expect(partial("GR-2003-refund-2", 6_000)).rejects.toMatchObject({ name: "TaxError", status: 400 });
      await expect(partial("GR-2003-refund-1", 1_000)).rejects.toMatchObject({ name: "TaxError", status: 400 });
      await expect(partial("GR-2003", 1_000)).rejects.toMatchObject({ name: "TaxError", status: 400 });
      await expect(
        service().reverse({
          originalTransactionId: record.transactionId,
          reference: "GR-2003-refund-3",
          idempotencyKey: "k-full",
          mode: "full",
        }),
      ).rejects.toMatchObject({ name: "TaxError", status: 400 });
      expect(fake.reversals.size).toBe(1);
    });

    it("refuses a partial reversal that names nothing, or negative amounts, without asking Stripe", async () => {
      const base = { originalTransactionId: "tax_123", reference: "GR-1-refund-1", idempotencyKey: "k" };
      await expect(service().reverse({ ...base, mode: "partial", lines: [] })).rejects.toBeInstanceOf(TaxError);
      await expect(service().reverse({ ...base, mode: "partial", shipping: { amountCents: -100, taxCents: 0 } })).rejects.toBeInstanceOf(
        TaxError,
      );
      expect(fake.requests).toHaveLength(0);
    });
  });
});
