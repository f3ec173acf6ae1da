import { describe, expect, it } from "vitest";
import { formatNumber } from "./number-format";

describe("formatNumber", () => {
  it("writes numbers as toLocaleString('en-US') does, without asking Intl", () => {
    const edges = [
      0,
      -0,
      7,
      60000,
      1234.5678,
      1.0005,
      2.0004999,
      999.9995,
      0.9995,
      0.0005,
      -0.0004,
      -0.0005,
      0.1 + 0.2,
      1e20,
      1e21,
      1e-7,
      Number.NaN,
      Infinity,
    ];
    const random = Array.from({ length: 3000 }, (_, i) => (i % 2 ? -1 : 1) * Math.random() * 10 ** (i % 10));
    for (const value of [...edges, ...random]) expect(formatNumber(value), String(value)).toBe(value.toLocaleString("en-US"));
  });
});
