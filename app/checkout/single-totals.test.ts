import { describe, expect, it } from "vitest";
import { singleCheckoutTotals } from "./single-totals";

describe("single-product checkout totals", () => {
  it("charges the flat $6.99 for one item", () => {
    expect(singleCheckoutTotals({ unitPriceCents: 1599, quantity: 1, promoCode: "", carrierShippingCents: null })).toMatchObject({
      subtotalCents: 1599,
      discountCents: 0,
      shippingCents: 699,
      totalCents: 2298,
    });
  });

  it("uses the carrier rate above one item, and 0 when none could be had", () => {
    expect(singleCheckoutTotals({ unitPriceCents: 1599, quantity: 3, promoCode: "", carrierShippingCents: 1245 }).totalCents).toBe(
      4797 + 1245,
    );
    expect(singleCheckoutTotals({ unitPriceCents: 1599, quantity: 3, promoCode: "", carrierShippingCents: null }).shippingCents).toBe(0);
  });

  it("takes 10% off with LOVERUB10 in any case, and nothing for another code", () => {
    const withCode = singleCheckoutTotals({ unitPriceCents: 1599, quantity: 2, promoCode: "loverub10", carrierShippingCents: 1000 });
    expect(withCode).toMatchObject({ promoApplied: true, discountCents: 320, totalCents: 3198 - 320 + 1000 });
    const wrong = singleCheckoutTotals({ unitPriceCents: 1599, quantity: 2, promoCode: "SAVE50", carrierShippingCents: 1000 });
    expect(wrong).toMatchObject({ promoApplied: false, discountCents: 0 });
  });

  it("keeps the quantity between 1 and 10", () => {
    expect(singleCheckoutTotals({ unitPriceCents: 100, quantity: 25, promoCode: "", carrierShippingCents: 0 }).quantity).toBe(10);
    expect(singleCheckoutTotals({ unitPriceCents: 100, quantity: 0, promoCode: "", carrierShippingCents: 0 }).quantity).toBe(1);
    expect(singleCheckoutTotals({ unitPriceCents: 100, quantity: Number.NaN, promoCode: "", carrierShippingCents: 0 }).quantity).toBe(1);
  });
});
