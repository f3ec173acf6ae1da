import { describe, expect, it } from "vitest";
import { readCatalogFiles } from "./catalog-files.server";
import { categoryFamily } from "./family";
import type { CatalogProduct } from "./product";
import { isVariationSibling, modelLength, MODEL_LENGTH_RULE, type SiblingCandidate } from "./variation-rule";
import { findVariant, modelPrefix, VARIATION_PREFIX_SEGMENTS, variationOptions } from "./variations";

/** The model-length rule per brand, derived from and checked against the real catalog. */
const catalog = readCatalogFiles().products;

function candidate(record: CatalogProduct): SiblingCandidate & { key: string; specifications: CatalogProduct["Specifications"] } {
  return {
    key: `${record.brand}-${record.Id}`,
    id: record.Id,
    brand: record.brand,
    model: record.Model,
    title: record.Title,
    categories: record.Category,
    specifications: record.Specifications,
  };
}

const byModel = (model: string) => candidate(catalog.find((record) => record.Model === model)!);
const kind = (record: CatalogProduct) => categoryFamily(record);

/** Products sharing a brand and a model prefix: the raw families the rule is derived from. */
function families(brand: string): CatalogProduct[][] {
  const groups = new Map<string, CatalogProduct[]>();
  for (const record of catalog.filter((r) => r.brand === brand)) {
    const prefix = modelPrefix(brand, record.Model);
    if (prefix) groups.set(prefix, [...(groups.get(prefix) ?? []), record]);
  }
  return [...groups.values()];
}

function pairs(brand: string): Array<[CatalogProduct, CatalogProduct]> {
  return families(brand).flatMap((family) => family.flatMap((a, i) => family.slice(i + 1).map((b) => [a, b] as [CatalogProduct, CatalogProduct])));
}

describe("model length rule per brand", () => {
  it("has a rule for every brand with variation dropdowns", () => {
    expect(Object.keys(MODEL_LENGTH_RULE).sort()).toEqual(Object.keys(VARIATION_PREFIX_SEGMENTS).sort());
  });

  it.each(Object.entries(MODEL_LENGTH_RULE))("%s: the catalog's families back the rule %s", (brand, rule) => {
    const unequal = pairs(brand).filter(([a, b]) => modelLength(a.Model) !== modelLength(b.Model));
    if (rule === "any") {
      // Longer models are versions of the same product, never another kind.
      expect(unequal.length).toBeGreaterThan(0);
      for (const [a, b] of unequal) expect(`${a.Model} ${kind(a)}`).toBe(`${a.Model} ${kind(b)}`);
    } else {
      // Either every family has one length, or a longer model is (at least once) another kind.
      expect(unequal.length === 0 || unequal.some(([a, b]) => kind(a) !== kind(b))).toBe(true);
    }
  });

  it("keeps real siblings: fuel, hinge, finish and version", () => {
    expect(isVariationSibling(byModel("BLZ-5LTE3-NG"), byModel("BLZ-5LTE3-LP"))).toBe(true);
    expect(isVariationSibling(byModel("36NBT"), byModel("36NBT-00SP"))).toBe(true);
    expect(isVariationSibling(byModel("ART-BC24"), byModel("ART-BC24-L"))).toBe(true);
    expect(isVariationSibling(byModel("P500RSIBPK-3"), byModel("P500RSIBPK-3-PHM"))).toBe(true);
    expect(isVariationSibling(byModel("AXE-PZA-NG"), byModel("AXE-PZA-BI-NG"))).toBe(true);
  });

  it("refuses accessories, carts and packages with a longer model, and other kinds", () => {
    expect(isVariationSibling(byModel("BLZ-4-CHAR"), byModel("BLZ-4-CART-SC"))).toBe(false);
    expect(isVariationSibling(byModel("BLZ-3-IJ"), byModel("BLZ-3-CART-SC"))).toBe(false);
    expect(isVariationSibling(byModel("ENC54-NG"), byModel("ENC54-NG-3PC-PROMO"))).toBe(false);
    expect(isVariationSibling(byModel("BR-X24P"), byModel("BR-X24P-BBB"))).toBe(false);
  });

  it("never lets a variation dropdown offer a product of another kind", () => {
    let checked = 0;
    for (const brand of Object.keys(MODEL_LENGTH_RULE)) {
      for (const family of families(brand)) {
        const members = family.map(candidate);
        for (const current of members) {
          const siblings = members.filter((other) => isVariationSibling(current, other));
          const options = variationOptions(current, siblings);
          const chosen = Object.fromEntries(options.map((option) => [option.name, option.selected]));
          for (const option of options) {
            for (const value of option.values) {
              const match = findVariant([current, ...siblings], { ...chosen, [option.name]: value });
              if (!match) continue;
              checked += 1;
              const record = family.find((r) => r.Id === match.id)!;
              expect(`${match.model}: ${kind(record)}`).toBe(`${match.model}: ${kind(family.find((r) => r.Id === current.id)!)}`);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
