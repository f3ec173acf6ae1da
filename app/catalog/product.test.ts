import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BRAND_KEYS,
  DISPLAYED_BRANDS,
  OWN_SEASONING_ID,
  brandDisplayName,
  catalogProductSchema,
  isBrandKey,
  parseProductKey,
  productKey,
} from "./product";
import { LOVE_RUB } from "./custom-product";

const valid = {
  Id: "3084446",
  Model: "ESTPB2-NG",
  brand: "american_made_grills",
  Title: "American Made Grills Estate Power Burner - Natural Gas - ESTPB2-NG",
  Price: 2560,
  Image: "/images/products/american_made_grills/3084446/1.svg",
  Other_image: ["/images/products/american_made_grills/3084446/1.svg"],
  Category: ["Home", "Outdoor Kitchens", "Side Burners for Grills and Outdoor Kitchens", "Power Burners"],
  Specifications: [{ Collection: "Estate" }, { "Total BTUs": "65000" }],
  Description: "text",
  image_count: 1,
};

describe("brand keys", () => {
  it("lists the 21 spec brands plus custom_product, in spec order", () => {
    expect(BRAND_KEYS).toHaveLength(22);
    expect(BRAND_KEYS[0]).toBe("alfresco");
    expect(BRAND_KEYS[6]).toBe("breeo");
    expect(BRAND_KEYS[BRAND_KEYS.length - 1]).toBe("custom_product");
  });

  it("displays 20 brands: no breeo, no custom_product", () => {
    expect(DISPLAYED_BRANDS).toHaveLength(20);
    expect(DISPLAYED_BRANDS).not.toContain("breeo");
    expect(DISPLAYED_BRANDS).not.toContain("custom_product");
    expect(DISPLAYED_BRANDS.map(brandDisplayName)).toEqual([
      "Alfresco",
      "American Made Grills",
      "AOG",
      "Artisan",
      "Blackstone",
      "Blaze",
      "Bromic Heating",
      "Coyote",
      "Delta",
      "Fire Magic",
      "Fontana",
      "Green Mountain",
      "Napoleon",
      "American Fyre Designs",
      "The Outdoor Plus",
      "Twin Eagles",
      "Primo",
      "Summerset",
      "Ledge Lounger",
      "Mont Alpi",
    ]);
  });

  it("spells each brand as its maker does, from a table rather than by title case", () => {
    expect(brandDisplayName("the_outdoor_plus")).toBe("The Outdoor Plus");
    expect(brandDisplayName("aog")).toBe("AOG");
    expect(brandDisplayName("american_fyre_design")).toBe("American Fyre Designs");
    expect(brandDisplayName("custom_product")).toBe("LOVE RUB");
    for (const key of BRAND_KEYS) expect(brandDisplayName(key), key).not.toMatch(/_/);
  });

  it("has a display name for the brand of every catalog file", () => {
    const files = readdirSync(join(process.cwd(), "catalog")).filter((name) => name.endsWith(".json") && name !== "import-report.json");
    for (const file of files) {
      const brands = new Set((JSON.parse(readFileSync(join(process.cwd(), "catalog", file), "utf8")) as Array<{ brand: string }>).map((p) => p.brand));
      for (const brand of brands) expect(isBrandKey(brand), `${file}: ${brand}`).toBe(true);
    }
  });
});

describe("catalogProductSchema", () => {
  it("accepts a normalized record", () => {
    expect(catalogProductSchema.parse(valid)).toEqual(valid);
  });

  it("accepts the own seasoning record", () => {
    expect(catalogProductSchema.safeParse(LOVE_RUB).success).toBe(true);
    expect(LOVE_RUB.Id).toBe(OWN_SEASONING_ID);
    expect(LOVE_RUB.Price).toBe(15.99);
  });

  it.each([
    ["empty Id", { Id: "" }],
    ["numeric Id", { Id: 3084446 }],
    ["unknown brand", { brand: "weber" }],
    ["empty title", { Title: "  " }],
    ["zero price", { Price: 0 }],
    ["three decimals", { Price: 10.005 }],
    ["string price", { Price: "USD 2560" }],
    ["category without Home root", { Category: ["Outdoor Kitchens"] }],
    ["empty category", { Category: [] }],
    ["two keys in one specification", { Specifications: [{ A: "1", B: "2" }] }],
    ["noise key", { Specifications: [{ "": "Current Item..." }] }],
    ["non-string specification value", { Specifications: [{ BTU: 65000 }] }],
    ["image_count 0", { image_count: 0 }],
    ["image not a path", { Image: "https://example.com/a.jpg" }],
    ["extra field", { Dimensions: "" }],
  ])("rejects %s", (_label, patch) => {
    expect(catalogProductSchema.safeParse({ ...valid, ...patch }).success).toBe(false);
  });

  it("accepts prices with binary-float cents such as 8351.55", () => {
    expect(catalogProductSchema.safeParse({ ...valid, Price: 8351.55 }).success).toBe(true);
  });
});

describe("productKey / parseProductKey", () => {
  it.each([
    ["custom_product", "LOVE-RUB-001", "custom_product-LOVE-RUB-001"],
    ["the_outdoor_plus", "3024912", "the_outdoor_plus-3024912"],
    ["american_made_grills", "3084446", "american_made_grills-3084446"],
    ["aog", "A-B-C", "aog-A-B-C"],
  ] as const)("round-trips %s / %s", (brand, Id, key) => {
    expect(productKey({ brand, Id })).toBe(key);
    expect(parseProductKey(key)).toEqual({ brand, Id });
  });

  it("round-trips every brand key", () => {
    for (const brand of BRAND_KEYS) {
      expect(parseProductKey(productKey({ brand, Id: "12-34" }))).toEqual({ brand, Id: "12-34" });
    }
  });

  it.each(["", "blaze", "blaze-", "weber-123", "the-outdoor-plus-1", "custom-product-LOVE-RUB-001", "Blaze-1"])(
    "returns null for %j",
    (key) => {
      expect(parseProductKey(key)).toBeNull();
    }
  );
});
