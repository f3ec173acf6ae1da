import { describe, expect, it } from "vitest";
import { centsOfDecimal } from "~/utils/money";
import { DEFAULT_PRODUCT_PARCEL, productParcel, seasoningParcel } from "./parcel";

describe("seasoningParcel", () => {
  it("is 5.75 x 2.75 x 5.75 inches and 11.5 ounces for one jar", () => {
    expect(seasoningParcel(1)).toEqual({ length: 5.75, width: 2.75, height: 5.75, weight: 11.5 });
  });

  it("stacks height and weight by quantity", () => {
    expect(seasoningParcel(4)).toEqual({ length: 5.75, width: 2.75, height: 23, weight: 46 });
    expect(seasoningParcel(10)).toEqual({ length: 5.75, width: 2.75, height: 57.5, weight: 115 });
  });

  it("refuses quantities that are not positive whole numbers", () => {
    for (const quantity of [0, -1, 1.5, Number.NaN]) expect(() => seasoningParcel(quantity)).toThrow(RangeError);
  });
});

describe("productParcel", () => {
  it("uses the catalog's size in inches and weight in pounds (as ounces), stacked by quantity", () => {
    const dimensions = { Width: '12.5"', Depth: '4"', Height: '3.25"', Weight: "2 lbs" };
    expect(productParcel(dimensions, 1)).toEqual({ length: 4, width: 12.5, height: 3.25, weight: 32 });
    expect(productParcel(dimensions, 3)).toEqual({ length: 4, width: 12.5, height: 9.75, weight: 96 });
  });

  it("takes the stated default box for missing or unreadable measures", () => {
    expect(productParcel({}, 1)).toEqual(DEFAULT_PRODUCT_PARCEL);
    expect(productParcel({ Width: "N/A", Weight: "0 lbs" }, 2)).toEqual({ length: 12, width: 12, height: 12, weight: 160 });
  });
});

describe("centsOfDecimal", () => {
  it("parses provider amounts into whole cents without float error", () => {
    expect(centsOfDecimal("10.85")).toBe(1085);
    expect(centsOfDecimal("7")).toBe(700);
    expect(centsOfDecimal("12.5")).toBe(1250);
    expect(centsOfDecimal(" 1234.56 ")).toBe(123456);
    expect(centsOfDecimal("0.29")).toBe(29);
    expect(centsOfDecimal(10.85)).toBe(1085);
  });

  it("rounds half up past the cent", () => {
    expect(centsOfDecimal("10.855")).toBe(1086);
    expect(centsOfDecimal("10.854")).toBe(1085);
    expect(centsOfDecimal("9.995")).toBe(1000);
  });

  it("answers null for anything that is not a non-negative amount", () => {
    for (const value of ["", "abc", "-3.00", "1,234.00", "$5", "1e3", null, undefined, -1, Number.NaN, Infinity, {}]) {
      expect(centsOfDecimal(value)).toBeNull();
    }
  });
});
