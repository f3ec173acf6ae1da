import { describe, expect, it } from "vitest";
import {
  cartShippingCents,
  financingMonthlyCents,
  isValidPromoCode,
  promoDiscountCents,
  qualifiesForFreeShipping,
  STRUCK_PRICE_FACTOR,
  struckPriceCents,
} from "./pricing";

describe("pricing rules", () => {
  it("charges $6.95 shipping up to and including $49, free above", () => {
    expect(cartShippingCents(4899)).toBe(695);
    expect(cartShippingCents(4900)).toBe(695);
    expect(cartShippingCents(4901)).toBe(0);
  });

  it("labels lines above $49 as free shipping", () => {
    expect(qualifiesForFreeShipping(4900)).toBe(false);
    expect(qualifiesForFreeShipping(4901)).toBe(true);
  });

  it("accepts LOVERUB10 in any case for 10% off, nothing else", () => {
    expect(isValidPromoCode("loverub10")).toBe(true);
    expect(isValidPromoCode(" LoveRub10 ")).toBe(true);
    expect(isValidPromoCode("LOVERUB")).toBe(false);
    expect(promoDiscountCents(3198, "LOVERUB10")).toBe(320);
    expect(promoDiscountCents(3198, "SAVE20")).toBe(0);
    expect(promoDiscountCents(3198, null)).toBe(0);
  });

  it("shows a financing monthly amount rounded up to the dollar", () => {
    expect(financingMonthlyCents(249999)).toBe(7000);
  });

  it("strikes the spec's factor price for a product the merchant has not priced", () => {
    const product = { priceCents: 10_000, wasCents: null };
    expect(STRUCK_PRICE_FACTOR).toEqual({ card: 1.12, detail: 1.02, seasoning: 1.15 });
    expect(struckPriceCents(product, "card")).toBe(11_200);
    expect(struckPriceCents(product, "detail")).toBe(10_200);
    expect(struckPriceCents({ priceCents: 1599, wasCents: null }, "seasoning")).toBe(1839);
  });

  it("strikes the merchant's was price (compare-at, or the regular price during a sale) wherever it is shown", () => {
    const onSale = { priceCents: 8_000, wasCents: 10_000 };
    expect(struckPriceCents(onSale, "card")).toBe(10_000);
    expect(struckPriceCents(onSale, "detail")).toBe(10_000);
    expect(struckPriceCents(onSale, "seasoning")).toBe(10_000);
  });
});
