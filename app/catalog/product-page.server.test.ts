import { describe, expect, it } from "vitest";
import { productFitFacts } from "~/guides/fits.server";
import { splitDescription } from "./description/legal";
import { keptFitFacts, productPageParts } from "./product-page.server";
import type { StoreProduct } from "./store-product";
import { variationOptions } from "./variations";

function grill(key: string, model: string, fuel: string): StoreProduct {
  return {
    key,
    id: key.split("-")[1],
    brand: "blaze",
    model,
    title: `Blaze 40-Inch Grill - ${model}`,
    priceCents: 249_999,
    wasCents: null,
    onSale: false,
    image: "/images/products/blaze/1/1.svg",
    images: [],
    categories: ["Home", "Outdoor Kitchens", "Built-In Grills"],
    facts: [],
    specifications: [{ "Fuel Type": fuel }, { "Grill Model": "Premium LTE+" }],
    description: "A grill.\nLegal Disclaimers and Warnings\nCalifornia Proposition 65.",
  };
}

describe("the product page's parts, made once per product", () => {
  const product = grill("blaze-1", "BLZ-5LTE3-NG", "Natural Gas");
  const siblings = [grill("blaze-2", "BLZ-5LTE3-LP", "Propane")];

  it("are what the page would work out itself", () => {
    expect(productPageParts(product, siblings)).toEqual({ variations: variationOptions(product, siblings), ...splitDescription(product.description) });
    expect(productPageParts(product, siblings).legal).toBe("California Proposition 65.");
    expect(keptFitFacts(product)).toEqual(productFitFacts(product));
  });

  it("are kept for the same product and siblings, and worked out again for other siblings", () => {
    const first = productPageParts(product, siblings);
    expect(productPageParts(product, siblings)).toBe(first);
    expect(keptFitFacts(product)).toBe(keptFitFacts(product));
    const none = productPageParts(product, []);
    expect(none).not.toBe(first);
    expect(none.variations).toEqual([]);
  });
});
