import { describe, expect, it } from "vitest";
import { singleCheckoutTotals, singleShippingRule } from "./single-totals";

const rub = { seasoning: true, promoCode: "" } as const;
const other = { seasoning: false, promoCode: "" } as const;

describe("single-product checkout totals", () => {
  it("charges the seasoning the flat $6.99 for one jar", () => {
    expect(singleCheckoutTotals({ ...rub, unitPriceCents: 1599, quantity: 1, carrierShippingCents: null })).toMatchObject({
      subtotalCents: 1599,
      discountCents: 0,
      shippingCents: 699,
      totalCents: 2298,
    });
  });

  it("uses the carrier rate above one jar, and 0 when none could be had", () => {
    expect(singleCheckoutTotals({ ...rub, unitPriceCents: 1599, quantity: 3, carrierShippingCents: 1245 }).totalCents).toBe(4797 + 1245);
    expect(singleCheckoutTotals({ ...rub, unitPriceCents: 1599, quantity: 3, carrierShippingCents: null }).shippingCents).toBe(0);
  });

  it("ships any other product free above $49, on every quantity", () => {
    expect(singleShippingRule({ seasoning: false, unitPriceCents: 249_999, quantity: 1 })).toEqual({ kind: "free" });
    expect(singleCheckoutTotals({ ...other, unitPriceCents: 249_999, quantity: 2, carrierShippingCents: 5000 })).toMatchObject({
      shippingCents: 0,
      totalCents: 499_998,
    });
    // $30 twice is $60: free like the cart.
    expect(singleShippingRule({ seasoning: false, unitPriceCents: 3000, quantity: 2 })).toEqual({ kind: "free" });
  });

  it("quotes the carrier for another product of $49 or less, even for one item", () => {
    expect(singleShippingRule({ seasoning: false, unitPriceCents: 4900, quantity: 1 })).toEqual({ kind: "carrier" });
    expect(singleCheckoutTotals({ ...other, unitPriceCents: 2500, quantity: 1, carrierShippingCents: 1320 })).toMatchObject({
      shippingCents: 1320,
      totalCents: 3820,
    });
  });

  it("takes 10% off with LOVERUB10 in any case, and nothing for another code", () => {
    const withCode = singleCheckoutTotals({
      ...rub,
      unitPriceCents: 1599,
      quantity: 2,
      promoCode: "loverub10",
      carrierShippingCents: 1000,
    });
    expect(withCode).toMatchObject({ promoApplied: true, discountCents: 320, totalCents: 3198 - 320 + 1000 });
    const wrong = singleCheckoutTotals({ ...rub, unitPriceCents: 1599, quantity: 2, promoCode: "SAVE50", carrierShippingCents: 1000 });
    expect(wrong).toMatchObject({ promoApplied: false, discountCents: 0 });
  });

  it("keeps the quantity between 1 and 10", () => {
    expect(singleCheckoutTotals({ ...other, unitPriceCents: 100, quantity: 25, carrierShippingCents: 0 }).quantity).toBe(10);
    expect(singleCheckoutTotals({ ...other, unitPriceCents: 100, quantity: 0, carrierShippingCents: 0 }).quantity).toBe(1);
    expect(singleCheckoutTotals({ ...other, unitPriceCents: 100, quantity: Number.NaN, carrierShippingCents: 0 }).quantity).toBe(1);
  });
});
