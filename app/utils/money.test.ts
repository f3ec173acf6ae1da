import { describe, expect, it } from "vitest";
import { priceToCents } from "~/catalog/store-product";
import { centsOfDecimal, centsOfTypedDollars, decimalOfCents } from "./money";

describe("centsOfDecimal (a provider's or a file's dollars)", () => {
  it("reads strings digit by digit and numbers to the nearest cent", () => {
    expect(centsOfDecimal("10.85")).toBe(1085);
    expect(centsOfDecimal("7")).toBe(700);
    expect(centsOfDecimal(" 1234.56 ")).toBe(123456);
    expect(centsOfDecimal(8351.55)).toBe(835155);
    expect(centsOfDecimal("9.995")).toBe(1000);
  });

  it("refuses what is not a non-negative amount", () => {
    for (const value of ["-1", "", "1,000", "ten", null, undefined, -0.5, Number.NaN, {}]) expect(centsOfDecimal(value)).toBeNull();
  });
});

describe("decimalOfCents", () => {
  it("writes exact dollars with two decimals, negatives too", () => {
    expect(decimalOfCents(129900)).toBe("1299.00");
    expect(decimalOfCents(5)).toBe("0.05");
    expect(decimalOfCents(0)).toBe("0.00");
    expect(decimalOfCents(-250)).toBe("-2.50");
  });

  it("is read back by both readers", () => {
    for (const cents of [1, 99, 100, 123456, 99_999_999]) {
      expect(centsOfDecimal(decimalOfCents(cents))).toBe(cents);
      expect(centsOfTypedDollars(decimalOfCents(cents))).toBe(cents);
    }
  });
});

describe("centsOfTypedDollars (a person's typing)", () => {
  it("takes a dollar sign, grouped thousands and up to two decimals", () => {
    expect(centsOfTypedDollars("$1,299.5")).toBe(129950);
    expect(centsOfTypedDollars(" 12 ")).toBe(1200);
    expect(centsOfTypedDollars("0")).toBe(0);
  });

  it("refuses anything else", () => {
    for (const text of ["", "-1", "1.234", "12e3", "1,23", "1.2.3", "twelve"]) expect(centsOfTypedDollars(text)).toBeNull();
  });
});

describe("priceToCents (the catalogue's prices, in the browser too)", () => {
  it("agrees with centsOfDecimal", () => {
    for (const price of [0.01, 8351.55, 1299, 19.99, 4899.99, 0.1 + 0.2]) expect(priceToCents(price)).toBe(centsOfDecimal(price));
  });
});
