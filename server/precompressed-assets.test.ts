import { describe, expect, it } from "vitest";
import { acceptsBrotli } from "./precompressed-assets";

describe("acceptsBrotli", () => {
  it("accepts br, or a wildcard, listed with a quality above 0", () => {
    expect(acceptsBrotli("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsBrotli("BR;q=0.5")).toBe(true);
    expect(acceptsBrotli("gzip, *")).toBe(true);
  });

  it("refuses a missing header, br at quality 0 and a list without it", () => {
    expect(acceptsBrotli(undefined)).toBe(false);
    expect(acceptsBrotli("")).toBe(false);
    expect(acceptsBrotli("gzip, deflate")).toBe(false);
    expect(acceptsBrotli("br;q=0, gzip")).toBe(false);
    expect(acceptsBrotli("br;q=0, *")).toBe(false);
    expect(acceptsBrotli("*;q=0")).toBe(false);
  });
});
