import { describe, expect, it } from "vitest";
import { parseDollars, returnRefund } from "./returns-desk";

const grill = { unitPriceCents: 10_000, orderedQuantity: 2, quantity: 1, taxCents: 0 };
const cover = { unitPriceCents: 5_000, orderedQuantity: 1, quantity: 1, taxCents: 0 };

describe("returnRefund", () => {
  it("gives back the returned lines' prices × quantities, keeping the shipping charged to the customer", () => {
    expect(
      returnRefund({ lines: [grill, cover], subtotalCents: 25_000, discountCents: 0, returnShippingCents: 0, refundableCents: 25_695 }),
    ).toEqual({
      goodsCents: 15_000,
      discountShareCents: 0,
      returnShippingCents: 0,
      taxCents: 0,
      refundCents: 15_000,
      cappedByPayment: false,
    });
  });

  it("gives back the returned quantity's share of each line's sales tax, which no shipping deduction reduces", () => {
    const taxedGrill = { ...grill, taxCents: 1_771 };
    expect(
      returnRefund({ lines: [taxedGrill], subtotalCents: 20_000, discountCents: 0, returnShippingCents: 1_234, refundableCents: 21_771 }),
    ).toMatchObject({ goodsCents: 10_000, taxCents: 886, refundCents: 10_000 - 1_234 + 886 });
    expect(
      returnRefund({
        lines: [
          { ...taxedGrill, taxCents: 1_771 },
          { ...cover, taxCents: 443 },
        ],
        subtotalCents: 25_000,
        discountCents: 0,
        returnShippingCents: 9_999_00,
        refundableCents: 99_999,
      }).refundCents,
    ).toBe(886 + 443);
  });

  it("deducts the return label's cost and the lines' share of the order's discount", () => {
    expect(
      returnRefund({ lines: [grill], subtotalCents: 25_000, discountCents: 2_500, returnShippingCents: 1_234, refundableCents: 22_500 }),
    ).toMatchObject({ goodsCents: 10_000, discountShareCents: 1_000, returnShippingCents: 1_234, refundCents: 7_766 });
  });

  it("is never below zero, never above what the payment still holds, and never counts more than was ordered", () => {
    expect(
      returnRefund({ lines: [cover], subtotalCents: 5_000, discountCents: 0, returnShippingCents: 9_000, refundableCents: 5_695 })
        .refundCents,
    ).toBe(0);
    expect(
      returnRefund({ lines: [grill, cover], subtotalCents: 25_000, discountCents: 0, returnShippingCents: 0, refundableCents: 4_000 }),
    ).toMatchObject({ refundCents: 4_000, cappedByPayment: true });
    expect(
      returnRefund({
        lines: [{ ...grill, quantity: 5 }],
        subtotalCents: 25_000,
        discountCents: 0,
        returnShippingCents: 0,
        refundableCents: 99_999,
      }).goodsCents,
    ).toBe(20_000);
  });
});

describe("parseDollars", () => {
  it("reads what staff type into whole cents", () => {
    expect(parseDollars("84.5")).toBe(8_450);
    expect(parseDollars("$1,234.56")).toBe(123_456);
    expect(parseDollars(" 12 ")).toBe(1_200);
    expect(parseDollars("0")).toBe(0);
  });
  it("refuses anything else", () => {
    for (const text of ["", "-1", "1.234", "12e3", "twelve", "1.2.3", "99999999"]) expect(parseDollars(text)).toBeNull();
  });
});
