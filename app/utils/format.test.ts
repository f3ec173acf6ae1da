import { describe, expect, it } from "vitest";
import { formatDate, formatPhone, formatUsd, parseQuantity, scaleCents, upperCase } from "./format";

describe("format", () => {
  it("formats money as US dollars", () => {
    expect(formatUsd(249999)).toBe("$2,499.99");
    expect(formatUsd(1599)).toBe("$15.99");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("writes money as Intl's en-US dollars do, without asking Intl", () => {
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const edges = [
      0,
      -0,
      1,
      -1,
      5,
      99,
      100,
      999,
      1000,
      99999,
      100000,
      123456789,
      -249999,
      0.4,
      -0.4,
      0.5,
      -0.5,
      2.5,
      10.5,
      1599.5,
      0.1 + 0.2,
    ];
    const random = Array.from({ length: 3000 }, (_, i) => (i % 2 ? -1 : 1) * Math.random() * 10 ** (i % 10));
    // Fractional cents round half away from zero. Intl rounds the dollars (cents / 100) instead, so a value a
    // float's width from half a cent (1.005 * 100 is 100.49999999999999) may round the other way there: left out.
    const clearOfHalfCents = random.filter((cents) => Math.abs((Math.abs(cents) % 1) - 0.5) > 1e-6);
    for (const cents of [...edges, ...clearOfHalfCents, ...random.map(Math.round)])
      expect(formatUsd(cents), String(cents)).toBe(usd.format(cents / 100));
    expect(formatUsd(1.005 * 100)).toBe("$1.00");
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
