import { describe, expect, it } from "vitest";
import { leadTime } from "~/catalog/lead-time";
import { evaluateRequest, POLICY_MESSAGES, type PolicyInput, type PolicyOrderLine, type PolicyRequest } from "./policy";
import { returnFactsOf, STRICT_BRAND, type ProductReturnFacts } from "./product-facts";

const DAY = 24 * 60 * 60 * 1000;
const delivered = new Date("2026-11-01T15:00:00Z");
const at = (ms: number) => new Date(delivered.getTime() + ms);

const plain: ProductReturnFacts = returnFactsOf(
  { brand: "blaze", categories: ["Home", "Grill Covers"], specifications: [{ Weight: "4 lbs" }] },
  "blaze",
);
const line = (title: string, facts: Partial<ProductReturnFacts> = {}, quantity = 2): PolicyOrderLine => ({
  title,
  quantity,
  facts: { ...plain, ...facts },
});

function input(request: Partial<PolicyRequest> = {}, rest: Partial<PolicyInput> & { lines?: PolicyOrderLine[] } = {}): PolicyInput {
  const { lines = [line("Grill cover")], ...others } = rest;
  return {
    order: { status: "Shipped", shippedAt: new Date("2026-10-28T00:00:00Z"), deliveredAt: delivered, lines },
    request: { kind: "return", lines: [{ lineIndex: 0, quantity: 1 }], reason: "Changed my mind", photoCount: 0, ...request },
    openLines: [],
    now: at(5 * DAY),
    ...others,
  };
}

const refusalsOf = (value: PolicyInput) => {
  const decision = evaluateRequest(value);
  return decision.allowed ? [] : decision.refusals;
};

describe("the return policy", () => {
  it("allows a return of a plain item within 30 days of delivery", () => {
    expect(evaluateRequest(input())).toEqual({ allowed: true });
    expect(refusalsOf(input({}, { now: at(30 * DAY) }))).toEqual([]);
  });

  it("refuses before delivery, with a clear message, for returns and defect claims", () => {
    const notDelivered = (kind: "return" | "defect") => {
      const value = input({ kind, photoCount: 1 });
      value.order.deliveredAt = null;
      return refusalsOf(value);
    };
    expect(notDelivered("return")).toEqual([POLICY_MESSAGES.notDeliveredReturn]);
    expect(notDelivered("defect")).toEqual([POLICY_MESSAGES.notDeliveredDefect]);
  });

  it("refuses a cancelled order", () => {
    const value = input();
    value.order.status = "Cancelled";
    expect(refusalsOf(value)).toEqual([POLICY_MESSAGES.cancelled]);
  });

  it("counts 30 days from delivery for a change of mind", () => {
    expect(refusalsOf(input({}, { now: at(30 * DAY + 1000) }))).toEqual([POLICY_MESSAGES.returnWindow(delivered)]);
    expect(POLICY_MESSAGES.returnWindow(delivered)).toContain("November 01, 2026");
  });

  it("counts 48 hours from delivery for a damaged or wrong item", () => {
    expect(refusalsOf(input({ reason: "Wrong item" }, { now: at(47 * 60 * 60 * 1000) }))).toEqual([]);
    expect(refusalsOf(input({ reason: "Wrong item" }, { now: at(49 * 60 * 60 * 1000) }))).toEqual([
      POLICY_MESSAGES.reportWindow(delivered),
    ]);
    expect(refusalsOf(input({ reason: "Arrived damaged", photoCount: 1 }, { now: at(3 * DAY) }))).toEqual([
      POLICY_MESSAGES.reportWindow(delivered),
    ]);
  });

  it.each([
    ["custom", { custom: true }, "is a custom item"],
    ["made to order", { madeToOrder: true }, "is made to order"],
    ["special order", { specialOrder: true }, "is a special-order item"],
    ["clearance", { clearance: true }, "was sold on clearance"],
    ["non-returnable", { nonReturnable: true }, "is marked non-returnable"],
  ] as const)("refuses a %s item for a change of mind or a defect", (_, facts, why) => {
    const lines = [line("Thing", facts)];
    expect(refusalsOf(input({}, { lines }))).toEqual([POLICY_MESSAGES.notReturnable("Thing", why)]);
    expect(refusalsOf(input({ reason: "Defective" }, { lines }))).toEqual([POLICY_MESSAGES.notReturnable("Thing", why)]);
    // Arrived damaged or wrong, reported in time: the store's mistake, taken back.
    expect(refusalsOf(input({ reason: "Wrong item" }, { lines, now: at(DAY) }))).toEqual([]);
  });

  it("refuses the brand with its own rules, and takes its damaged delivery within 48 hours only", () => {
    const lines = [line("Fire bowl", { strictBrand: true, madeToOrder: true, freight: false })];
    expect(refusalsOf(input({}, { lines }))).toEqual([POLICY_MESSAGES.strictBrand("Fire bowl")]);
    expect(refusalsOf(input({ reason: "Arrived damaged", photoCount: 1 }, { lines, now: at(DAY) }))).toEqual([]);
    expect(refusalsOf(input({ reason: "Arrived damaged", photoCount: 1 }, { lines, now: at(3 * DAY) }))).toEqual([
      POLICY_MESSAGES.reportWindow(delivered),
    ]);
  });

  it("asks for a photo of a freight item and of damage", () => {
    const lines = [line("Grill", { freight: true })];
    expect(refusalsOf(input({}, { lines }))).toEqual([POLICY_MESSAGES.freightPhoto("Grill")]);
    expect(refusalsOf(input({ photoCount: 1 }, { lines }))).toEqual([]);
    expect(refusalsOf(input({ reason: "Arrived damaged" }, { now: at(DAY) }))).toEqual([POLICY_MESSAGES.damagePhoto]);
  });

  it("allows one open request per line", () => {
    const lines = [line("Cover"), line("Brush")];
    const openLines = [{ lineIndex: 0, number: "R-ABC234" }];
    expect(refusalsOf(input({}, { lines, openLines }))).toEqual([POLICY_MESSAGES.openRequest("Cover", "R-ABC234")]);
    expect(refusalsOf(input({ lines: [{ lineIndex: 1, quantity: 1 }] }, { lines, openLines }))).toEqual([]);
  });

  it("refuses lines that are not on the order, chosen twice, or more than ordered", () => {
    expect(refusalsOf(input({ lines: [{ lineIndex: 3, quantity: 1 }] }))).toEqual([POLICY_MESSAGES.notOnOrder]);
    expect(refusalsOf(input({ lines: [{ lineIndex: -1, quantity: 1 }] }))).toEqual([POLICY_MESSAGES.notOnOrder]);
    expect(refusalsOf(input({ lines: [] }))).toEqual([POLICY_MESSAGES.noLines]);
    expect(
      refusalsOf(
        input({
          lines: [
            { lineIndex: 0, quantity: 1 },
            { lineIndex: 0, quantity: 1 },
          ],
        }),
      ),
    ).toEqual([POLICY_MESSAGES.duplicateLine]);
    expect(refusalsOf(input({ lines: [{ lineIndex: 0, quantity: 3 }] }))).toEqual([POLICY_MESSAGES.quantity("Grill cover", 2)]);
    expect(refusalsOf(input({ lines: [{ lineIndex: 0, quantity: 0 }] }))).toEqual([POLICY_MESSAGES.quantity("Grill cover", 2)]);
    const returnedQuantities = new Map([[0, 2]]);
    expect(refusalsOf(input({}, { returnedQuantities }))).toEqual([POLICY_MESSAGES.quantity("Grill cover", 0)]);
  });

  it("lists every refusal at once", () => {
    const lines = [line("Rub", { custom: true }), line("Grill", { freight: true })];
    const refusals = refusalsOf(
      input(
        {
          lines: [
            { lineIndex: 0, quantity: 1 },
            { lineIndex: 1, quantity: 1 },
          ],
        },
        { lines, now: at(40 * DAY) },
      ),
    );
    expect(refusals).toEqual([
      POLICY_MESSAGES.returnWindow(delivered),
      POLICY_MESSAGES.notReturnable("Rub", "is a custom item"),
      POLICY_MESSAGES.freightPhoto("Grill"),
    ]);
  });
});

describe("the defect claim policy", () => {
  const claim = (request: Partial<PolicyRequest>, rest: Partial<PolicyInput> & { lines?: PolicyOrderLine[] } = {}) =>
    refusalsOf(input({ kind: "defect", reason: "Defective", ...request }, rest));

  it("needs a photo or a video link, and has no window of its own", () => {
    expect(claim({})).toEqual([POLICY_MESSAGES.defectEvidence]);
    expect(claim({ photoCount: 1 }, { now: at(400 * DAY) })).toEqual([]);
    expect(claim({ hasVideoLink: true })).toEqual([]);
  });

  it("counts units already returned: a claim covers only what the customer still has", () => {
    const lines = [line("Grill cover", {}, 2)];
    const returnedQuantities = new Map([[0, 1]]);
    expect(claim({ photoCount: 1, lines: [{ lineIndex: 0, quantity: 2 }] }, { lines, returnedQuantities })).toEqual([
      POLICY_MESSAGES.quantity("Grill cover", 1),
    ]);
    expect(claim({ photoCount: 1, lines: [{ lineIndex: 0, quantity: 1 }] }, { lines, returnedQuantities })).toEqual([]);
  });

  it("takes custom and made-to-order items (the warranty covers them) and holds one open request per line", () => {
    const lines = [line("Fire bowl", { strictBrand: true, madeToOrder: true })];
    expect(claim({ photoCount: 1 }, { lines })).toEqual([]);
    expect(claim({ photoCount: 1 }, { lines, openLines: [{ lineIndex: 0, number: "D-XYZ789" }] })).toEqual([
      POLICY_MESSAGES.openRequest("Fire bowl", "D-XYZ789"),
    ]);
  });
});

describe("product facts from the catalogue", () => {
  it("the strict brand is the one brand that builds to order", () => {
    expect(leadTime(STRICT_BRAND).card).toContain("4 - 6 Weeks");
    expect(leadTime("blaze").card).toContain("24 Hrs");
    expect(returnFactsOf({ brand: STRICT_BRAND, categories: [], specifications: [] }, STRICT_BRAND)).toMatchObject({
      strictBrand: true,
      madeToOrder: true,
    });
  });

  it("the store's own seasoning is custom", () => {
    expect(returnFactsOf({ brand: "custom_product", categories: ["Seasonings & Rubs"], specifications: [] }, "custom_product").custom).toBe(
      true,
    );
  });

  it("reads flags from specifications", () => {
    const facts = returnFactsOf(
      {
        brand: "blaze",
        categories: [],
        specifications: [{ "Special Order": "Yes" }, { Clearance: "yes" }, { Returnable: "No" }, { "Made to Order": "Yes" }],
      },
      "blaze",
    );
    expect(facts).toMatchObject({ specialOrder: true, clearance: true, nonReturnable: true, madeToOrder: true, custom: false });
  });

  it("counts the merchant's flags besides the catalogue's rules, never taking one away", () => {
    const row = { brand: "blaze", categories: ["Home", "Grill Covers"], specifications: [{ Weight: "4 lbs" }] };
    expect(returnFactsOf(row, "blaze")).toMatchObject({ nonReturnable: false, custom: false, madeToOrder: false });
    expect(returnFactsOf({ ...row, nonReturnable: true }, "blaze")).toMatchObject({
      nonReturnable: true,
      custom: false,
      madeToOrder: false,
    });
    expect(returnFactsOf({ ...row, customMade: true }, "blaze")).toMatchObject({ nonReturnable: false, custom: true, madeToOrder: false });
    expect(returnFactsOf({ ...row, madeToOrder: true }, "blaze")).toMatchObject({ nonReturnable: false, custom: false, madeToOrder: true });
    // A flag not set leaves the catalogue's own rules as they are.
    const strict = { brand: STRICT_BRAND, categories: [], specifications: [{ Returnable: "No" }] };
    expect(returnFactsOf({ ...strict, nonReturnable: false, customMade: false, madeToOrder: false }, STRICT_BRAND)).toMatchObject({
      nonReturnable: true,
      madeToOrder: true,
    });
    const own = { brand: "custom_product", categories: [], specifications: [], customMade: false };
    expect(returnFactsOf(own, "custom_product").custom).toBe(true);
  });

  it("refuses a change of mind for a product the merchant flagged non-returnable, like the catalogue's", () => {
    const flagged = returnFactsOf(
      { brand: "blaze", categories: ["Home", "Grill Covers"], specifications: [{ Weight: "4 lbs" }], nonReturnable: true },
      "blaze",
    );
    const fromSpecs = returnFactsOf(
      { brand: "blaze", categories: ["Home", "Grill Covers"], specifications: [{ Weight: "4 lbs" }, { Returnable: "No" }] },
      "blaze",
    );
    const refusals = (facts: ProductReturnFacts) => refusalsOf(input({}, { lines: [{ title: "Grill cover", quantity: 2, facts }] }));
    expect(refusals(flagged).length).toBeGreaterThan(0);
    expect(refusals(flagged)).toEqual(refusals(fromSpecs));
  });

  it("freight: 150 lb or more, else the freight categories without a weight, and unknown products", () => {
    const product = (weight: string | null, leaf = "Miscellaneous Accessories") => ({
      brand: "blaze",
      categories: ["Home", leaf],
      specifications: weight ? [{ Weight: weight }] : [],
    });
    expect(returnFactsOf(product("547 lbs"), "blaze").freight).toBe(true);
    expect(returnFactsOf(product("150 lbs"), "blaze").freight).toBe(true);
    expect(returnFactsOf(product("20 lbs", "Gas Grills"), "blaze").freight).toBe(false);
    expect(returnFactsOf(product(null, "Gas Grills"), "blaze").freight).toBe(true);
    expect(returnFactsOf(product(null), "blaze").freight).toBe(false);
    expect(returnFactsOf(null, "blaze").freight).toBe(true);
  });
});
