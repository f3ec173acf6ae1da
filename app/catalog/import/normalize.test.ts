import { describe, expect, it } from "vitest";
import {
  brandFromTitle,
  compareIds,
  modelFromTitle,
  normalizeCategory,
  normalizeId,
  normalizeSpecifications,
  parsePrice,
  splitSpecificationString,
} from "./normalize";
import { stripBrandPrefix } from "../brands";

describe("parsePrice", () => {
  it.each([
    ["USD 2560", 2560],
    ["USD 12900", 12900],
    ["2560", 2560],
    ["1,299.50", 1299.5],
    ["$1,299.00", 1299],
    [8351.55, 8351.55],
    [2081.7, 2081.7],
    [15.999, 16],
  ])("parses %j", (raw, expected) => {
    expect(parsePrice(raw)).toBe(expected);
  });

  it.each([null, undefined, "", "USD", "call for price", 0, -5, Number.NaN, {}])("rejects %j", (raw) => {
    expect(parsePrice(raw)).toBeNull();
  });
});

describe("normalizeId", () => {
  it("keeps numeric ids as their decimal string", () => {
    expect(normalizeId(3084446)).toBe("3084446");
    expect(normalizeId(" 3084446 ")).toBe("3084446");
    expect(normalizeId("LOVE-RUB-001")).toBe("LOVE-RUB-001");
    expect(normalizeId("")).toBeNull();
    expect(normalizeId(null)).toBeNull();
  });
});

describe("specifications", () => {
  it("splits the older string shape (products.json, Id 3084446)", () => {
    const raw =
      'Collection: Estate; Configuration: Built-In; Cut Out Width: 13 1/4"; Total BTUs: 65000; Made In USA: Yes; Model Number: ESTPB2-NG';
    const result = normalizeSpecifications(raw);
    expect(result.splitFromString).toBe(true);
    expect(result.specifications).toEqual([
      { Collection: "Estate" },
      { Configuration: "Built-In" },
      { "Cut Out Width": '13 1/4"' },
      { "Total BTUs": "65000" },
      { "Made In USA": "Yes" },
      { "Model Number": "ESTPB2-NG" },
    ]);
  });

  it('drops the "" noise fragment of the string shape (products.json, Id 3084425)', () => {
    const raw =
      ": Current ItemAmerican Made Grills Estate, Muscle, Encore Power Burner Grill Liner - GL-APB2$555.00As low as $48 per month* Free ShippingLeaves Warehouse:1-3 Business DaysAdd to Cart; Collection: Encore / Muscle / Estate; Material: Stainless Steel";
    const result = normalizeSpecifications(raw);
    expect(result.noiseDropped).toBe(1);
    expect(result.specifications).toEqual([
      { Collection: "Encore / Muscle / Estate" },
      { Material: "Stainless Steel" },
    ]);
  });

  it('drops the "" noise key of brand files (american_made_grills, Id 3084392)', () => {
    const result = normalizeSpecifications([
      {
        "": "Current ItemAmerican Made Grills Rotisserie Kit ... $520.00As low as $45 per month* Free ShippingAdd to Cart",
      },
      { Material: "Stainless Steel" },
      { "Grill Model": "54 Inch Encore / Muscle" },
    ]);
    expect(result.noiseDropped).toBe(1);
    expect(result.splitFromString).toBe(false);
    expect(result.specifications).toEqual([
      { Material: "Stainless Steel" },
      { "Grill Model": "54 Inch Encore / Muscle" },
    ]);
  });

  it("flattens multi-key objects, trims, drops empty values and repeated names", () => {
    const result = normalizeSpecifications([{ " Width ": ' 36" ', Height: "24" }, { Depth: "" }, { Width: "40" }, "x"]);
    expect(result.specifications).toEqual([{ Width: '36"' }, { Height: "24" }]);
    expect(result.malformedDropped).toBe(2);
    expect(result.duplicatesDropped).toBe(1);
  });

  it("treats an empty string as no specifications and null as missing", () => {
    expect(normalizeSpecifications("").specifications).toEqual([]);
    expect(normalizeSpecifications(null).missing).toBe(true);
  });

  it("reports fragments without a colon as malformed", () => {
    expect(splitSpecificationString("A: 1; nonsense; B: 2")).toEqual([["A", "1"], null, ["B", "2"]]);
  });
});

describe("brandFromTitle", () => {
  it.each([
    ["American Made Grills Encore 36-Inch Hybrid Grill - Natural Gas - ENC36-NG", "american_made_grills"],
    ["American Made Grills Rotisserie Kit for Atlas 36-Inch Grill - ROTKIT-ATS36", "american_made_grills"],
    ["American Outdoor Grill 24-Inch Built-In Propane Gas Grill", "aog"],
    ["Delta Heat 26-Inch 2-Burner Built-In Natural Gas Grill - DHBQ26G-DN", "delta"],
    ["Fontana Forni Mangiafuoco Wood Fired Pizza Oven", "fontana"],
    ["Green Moutain Grills Trek Prime", "green_mountain"],
    ["Bromic Heating Platinum 300 Smart-Heat 22-Inch Patio Heater - BH0110001", "bromic_heating"],
    ["Fire Magic Echelon Diamond E790i", "fire_magic"],
    ["Del Mar 72 Inch Rectangular GFRC Natural Gas Fire Pit in Ash by The Outdoor Plus", "the_outdoor_plus"],
    ["Wave 20 Inch Round Propane Fire Urn in Smoke by American Fyre Designs", "american_fyre_design"],
  ])("%s", (title, brand) => {
    expect(brandFromTitle(title)).toBe(brand);
  });

  it("returns null for an unknown brand", () => {
    expect(brandFromTitle("Weber Genesis E-325")).toBeNull();
    expect(brandFromTitle("Blazer 4-Burner")).toBeNull();
  });

  it("strips a leading brand so its words are not read as a product type", () => {
    expect(stripBrandPrefix("American Made Grills Estate Power Burner - Natural Gas")).toBe(
      "Estate Power Burner - Natural Gas"
    );
  });
});

describe("modelFromTitle", () => {
  it("takes a trailing model code", () => {
    expect(modelFromTitle("Artisan Professional 29-Inch Propane Outdoor Pizza Oven On Cart - ARTP-PZA-LP")).toBe(
      "ARTP-PZA-LP"
    );
    expect(modelFromTitle("Blackstone 28 Inch Griddle W/ Hard Cover & Griddle Cover - 2287")).toBe("2287");
  });

  it("ignores color suffixes and titles without a code", () => {
    expect(
      modelFromTitle("American Fyre Designs Cordova 110-Inch Outdoor Natural Gas Fireplace - Cafe Blanco")
    ).toBeNull();
    expect(modelFromTitle("Blackstone 5 pc Toolkit and Breakfast Kit")).toBeNull();
  });
});

describe("normalizeCategory", () => {
  it("keeps a Home-rooted path and adds a missing root", () => {
    expect(normalizeCategory(["Home", "Outdoor Kitchens"])).toEqual({
      path: ["Home", "Outdoor Kitchens"],
      homeAdded: false,
    });
    expect(normalizeCategory(["Outdoor Kitchens"])).toEqual({ path: ["Home", "Outdoor Kitchens"], homeAdded: true });
    expect(normalizeCategory(undefined)).toBeNull();
    expect(normalizeCategory([])).toBeNull();
  });
});

describe("compareIds", () => {
  it("orders numeric ids by value, then other ids", () => {
    expect(["3084446", "999", "LOVE-RUB-001", "10000", "A-1"].sort(compareIds)).toEqual([
      "999",
      "10000",
      "3084446",
      "A-1",
      "LOVE-RUB-001",
    ]);
  });
});
