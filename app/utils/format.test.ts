import { describe, expect, it } from "vitest";
import { formatDate, formatPhone, formatUsd, parseQuantity, scaleCents, upperCase } from "./format";

describe("format", () => {
  it("formats money as US dollars", () => {
    expect(formatUsd(249999)).toBe("$2,499.99");
    expect(formatUsd(1599)).toBe("$15.99");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("formats dates with a long month, two-digit day and year", () => {
    expect(formatDate(new Date("2026-11-05T12:00:00Z"))).toBe("November 05, 2026");
  });

  it("formats exactly ten digits as a US phone, else empty", () => {
    expect(formatPhone("8775550142")).toBe("(877) 555-0142");
    expect(formatPhone("(877) 555-0142")).toBe("(877) 555-0142");
    expect(formatPhone("877555014")).toBe("");
    expect(formatPhone("18775550142")).toBe("");
  });

  it("upper-cases strings and refuses anything else", () => {
    expect(upperCase("love rub")).toBe("LOVE RUB");
    expect(() => upperCase(42)).toThrow("Input must be a string");
  });

  it("parses quantities: integers from 1, anything else becomes 1", () => {
    expect(parseQuantity("3")).toBe(3);
    expect(parseQuantity("2.7")).toBe(2);
    expect(parseQuantity("0")).toBe(1);
    expect(parseQuantity("-4")).toBe(1);
    expect(parseQuantity("abc")).toBe(1);
    expect(parseQuantity("")).toBe(1);
    expect(parseQuantity("25", 10)).toBe(10);
  });

  it("scales prices to the cent", () => {
    expect(scaleCents(249999, 1.02)).toBe(254999);
    expect(scaleCents(1599, 1.15)).toBe(1839);
  });
});
