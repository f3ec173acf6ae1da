import { describe, expect, it } from "vitest";
import { cartShippingCents, financingMonthlyCents, isValidPromoCode, promoDiscountCents, qualifiesForFreeShipping } from "./pricing";

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
});
