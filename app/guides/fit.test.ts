import { describe, expect, it } from "vitest";
import { cutoutFits, type Cutout, describeGap, fitPath, parseFitSearch, snugness } from "./fit";

describe("the cutout rule", () => {
  const opening = { width: 30, depth: 21, height: 10 };
  it.each<[Cutout, boolean, string]>([
    [{ width: 30, depth: 21, height: 8.5 }, true, "exact width and depth"],
    [{ width: 29.5, depth: 20.25, height: null }, true, "a small gap the frame covers, no height listed"],
    [{ width: 30.125, depth: 21, height: 8 }, true, "1/8 in over is within the measuring allowance"],
    [{ width: 30.25, depth: 21, height: 8 }, false, "1/4 in over does not fit"],
    [{ width: 28.5, depth: 21, height: 8 }, false, "1 1/2 in narrower leaves a visible gap"],
    [{ width: 30, depth: 21, height: 10.5 }, false, "deeper than the opening's height"],
  ])("%j fits a 30 × 21 × 10 opening: %s (%s)", (cutout, fits, _why) => {
    expect(cutoutFits(cutout, opening)).toBe(fits);
  });

  it("accepts a larger gap when asked", () => {
    expect(cutoutFits({ width: 28.5, depth: 21, height: null }, opening, 2)).toBe(true);
  });

  it("ranks snug fits first and describes each gap", () => {
    expect(snugness({ width: 29.75, depth: 20.5, height: null }, opening)).toBe(0.75);
    expect(describeGap(30, 29.75)).toBe("1/4 in to spare");
    expect(describeGap(30, 30)).toBe("exact");
    expect(describeGap(30, 30.125)).toBe("1/8 in tight (within the 1/8 in allowance)");
  });
});

describe("the /fit query string", () => {
  it("reads fractions, filters and prices", () => {
    const form = parseFitSearch(new URLSearchParams("width=30 1/4&depth=21&height=&brand=blaze&fuel=Propane&max=3,000&gap=2&type=all"));
    expect(form.errors).toEqual({});
    expect(form.query).toMatchObject({
      opening: { width: 30.25, depth: 21, height: null },
      brand: "blaze",
      fuel: "Propane",
      maxPriceCents: 300000,
      gap: 2,
      type: "all",
    });
  });

  it("asks for what is missing and ignores unknown filters", () => {
    const form = parseFitSearch(new URLSearchParams("width=wide&brand=nobody&fuel=coal&gap=9"));
    expect(form.submitted).toBe(true);
    expect(form.errors.width).toMatch(/inches/);
    expect(form.errors.depth).toBe("Enter the opening's depth in inches");
    expect(form.query).toMatchObject({ opening: null, brand: "", fuel: "", gap: 1, type: "grills" });
  });

  it("needs no measurements when a grill is named, and a blank form asks nothing", () => {
    expect(parseFitSearch(new URLSearchParams("grill=BLZ-4LTE2-LP")).errors).toEqual({});
    expect(parseFitSearch(new URLSearchParams("")).submitted).toBe(false);
  });

  it("builds the bookmarkable address", () => {
    expect(fitPath({ width: 30, depth: 21 }, { type: "grills" })).toBe("/fit?width=30&depth=21&type=grills");
  });
});
