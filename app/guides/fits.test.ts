import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { productKey, type CatalogProduct } from "~/catalog/product";
import { normalizeSpecs } from "~/catalog/spec-values";
import {
  accessoryFitsGrill,
  grillModelTargets,
  grillSize,
  isAccessoryOfKind,
  isGrill,
  isGrillAccessory,
  type FitProductFacts,
} from "./fits";

const catalogDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../catalog");
const byKey = new Map<string, FitProductFacts>();
for (const file of readdirSync(catalogDir).filter((name) => name.endsWith(".json") && name !== "import-report.json")) {
  for (const product of JSON.parse(readFileSync(path.join(catalogDir, file), "utf8")) as CatalogProduct[]) {
    const values = normalizeSpecs(product.Specifications);
    byKey.set(productKey(product), {
      key: productKey(product),
      brand: product.brand,
      title: product.Title,
      categories: product.Category,
      grillModel: values.grillModel ?? null,
      collection: values.collection ?? null,
      fuelType: values.fuelType ?? null,
    });
  }
}
const facts = (key: string) => {
  const found = byKey.get(key);
  if (!found) throw new Error(`${key} is not in the catalogue`);
  return found;
};

// [accessory, grill, why] from the real catalogue.
const MUST_MATCH: Array<[string, string, string]> = [
  ["american_made_grills-3084347", "american_made_grills-3080621", "36-inch Encore/Muscle built-in cover, Encore 36 built-in"],
  ["american_made_grills-3084347", "american_made_grills-3080636", "36-inch Encore/Muscle built-in cover, Muscle 36 built-in"],
  ["american_made_grills-3084350", "american_made_grills-3080627", "54-inch Encore/Muscle built-in cover, Encore 54"],
  ["american_made_grills-3084353", "american_made_grills-3083222", "36-inch freestanding cover, Encore 36 freestanding"],
  ["american_made_grills-3084356", "american_made_grills-3083243", "54-inch freestanding cover, Muscle 54 freestanding"],
  ["american_made_grills-3084359", "american_made_grills-3080645", "Estate 30 built-in cover, Estate 30"],
  ["american_made_grills-3084362", "american_made_grills-3083246", "Estate 30 freestanding cover, Estate 30 freestanding"],
  ["american_made_grills-3084371", "american_made_grills-3080657", "Estate 42 built-in cover, Estate 42"],
  ["american_made_grills-3084389", "american_made_grills-3080633", "rotisserie for 36-inch Encore/Muscle, Muscle 36"],
  ["american_made_grills-3084389", "american_made_grills-3083225", "rotisserie (no kind named), Encore 36 freestanding"],
  ["american_made_grills-3084398", "american_made_grills-3080651", "rotisserie for Estate 36, Estate 36"],
  ["american_made_grills-3100259", "american_made_grills-3094838", "rotisserie for Atlas 36, Atlas 36 freestanding"],
  ["american_made_grills-3084386", "american_made_grills-3080660", "Estate sear burner, Estate 42"],
  ["blaze-2861968", "blaze-2973501", "32-inch built-in cover, Premium LTE 32 built-in"],
  ["blaze-2861968", "blaze-3073483", "32-inch built-in cover, Prelude LBM 32 built-in"],
  ["blaze-2861968", "blaze-2910900", "32-inch built-in cover, 32-inch built-in charcoal grill"],
  ["blaze-2861970", "blaze-2973492", "40-inch built-in cover, Premium LTE 40 built-in"],
  ["blaze-2861974", "blaze-3105392", "32-inch freestanding cover, Premium LTE 32 on its cart"],
  ["blaze-2865682", "blaze-2973507", "warming rack for Premium LTE 32, LTE 32"],
  ["blaze-2889600", "blaze-2961693", "control knob for all Professional LUX, LUX 44"],
  ["blaze-2872978", "blaze-3159834", "flame tamer for all Premium LTE, LTE+ 32"],
  ["blaze-2861956", "blaze-2973501", "regulator for all Blaze gas grills, LTE 32"],
  ["blaze-2888568", "blaze-2961696", "cooking grate for Professional LUX 34 & 44, LUX 44"],
  ["blaze-2888568", "blaze-2881134", "cooking grate for Professional LUX 34 & 44, LUX 34"],
];

const MUST_NOT_MATCH: Array<[string, string, string]> = [
  ["american_made_grills-3084347", "american_made_grills-3080627", "36-inch cover, 54-inch Encore"],
  ["american_made_grills-3084347", "american_made_grills-3083222", "built-in cover, freestanding Encore 36"],
  ["american_made_grills-3084347", "american_made_grills-3080651", "Encore/Muscle cover, Estate 36"],
  ["american_made_grills-3084350", "american_made_grills-3080621", "54-inch cover, 36-inch Encore"],
  ["american_made_grills-3084353", "american_made_grills-3080621", "freestanding cover, built-in Encore 36"],
  ["american_made_grills-3084359", "american_made_grills-3080651", "Estate 30 cover, Estate 36"],
  ["american_made_grills-3084371", "american_made_grills-3083258", "Estate 42 built-in cover, Estate 42 freestanding"],
  ["american_made_grills-3084389", "american_made_grills-3080639", "36-inch rotisserie, Muscle 54"],
  ["american_made_grills-3084398", "american_made_grills-3080621", "Estate rotisserie, Encore 36"],
  ["american_made_grills-3100259", "american_made_grills-3080651", "Atlas rotisserie, Estate 36"],
  ["american_made_grills-3084386", "american_made_grills-3080621", "Estate sear burner, Encore"],
  ["american_made_grills-3084344", "american_made_grills-3080651", "side burner cover, Estate 36 grill"],
  ["blaze-2861968", "blaze-3105392", "built-in cover, LTE 32 on its cart"],
  ["blaze-2861968", "blaze-2973492", "32-inch cover, LTE 40"],
  ["blaze-2861970", "blaze-2973501", "40-inch cover, LTE 32"],
  ["blaze-2861974", "blaze-2973501", "freestanding cover, built-in LTE 32"],
  ["blaze-2865682", "blaze-2973513", "32-inch warming rack, LTE 40"],
  ["blaze-2889600", "blaze-2973501", "Professional LUX knob, Premium LTE"],
  ["blaze-2872978", "blaze-2881134", "Premium LTE/Traditional flame tamer, Professional LUX"],
  ["blaze-2861968", "american_made_grills-3080621", "another brand's grill"],
  ["american_made_grills-3084347", "blaze-2973501", "another brand's cover"],
  ["blaze-2861956", "blaze-2910900", "gas regulator, charcoal grill"],
  ["blaze-2991579", "blaze-2881134", "grate for LUX 27, LUX 34"],
  ["blaze-2973501", "blaze-2973507", "a grill is not an accessory"],
];

describe("fits my grill: real catalogue pairs", () => {
  it("has at least 20 of each", () => {
    expect(MUST_MATCH.length).toBeGreaterThanOrEqual(20);
    expect(MUST_NOT_MATCH.length).toBeGreaterThanOrEqual(20);
  });
  it.each(MUST_MATCH)("%s fits %s (%s)", (accessory, grill) => {
    expect(accessoryFitsGrill(facts(accessory), facts(grill))).toBe(true);
  });
  it.each(MUST_NOT_MATCH)("%s does not fit %s (%s)", (accessory, grill) => {
    expect(accessoryFitsGrill(facts(accessory), facts(grill))).toBe(false);
  });
});

describe("the rules' parts", () => {
  it("splits a Grill Model into targets, sharing one size and kind", () => {
    expect(grillModelTargets(facts("american_made_grills-3084347"))).toEqual([
      { words: ["encore"], sizes: [36], kind: "built-in", gasOnly: false },
      { words: ["muscle"], sizes: [36], kind: "built-in", gasOnly: false },
    ]);
    expect(grillModelTargets(facts("blaze-2888568"))[0]).toMatchObject({ words: ["professional", "lux"], sizes: [34, 44] });
  });
  it("reads a grill's size from its title and tells grills from accessories", () => {
    expect(grillSize("Blaze Premium LTE 32-Inch 4-Burner")).toBe(32);
    expect(grillSize("Atlas 36 Inch Grill")).toBe(36);
    expect(grillSize("Blaze Grill")).toBeNull();
    expect(isGrill(facts("blaze-2973501"))).toBe(true);
    expect(isGrillAccessory(facts("blaze-2861968"))).toBe(true);
    expect(isGrillAccessory(facts("blaze-2973501"))).toBe(false);
  });
  it("tells a cover or a rotisserie by what it is, not by a word in its title", () => {
    expect(isAccessoryOfKind(facts("blaze-2861966"), "cover")).toBe(true); // Grill Cover for 25-Inch Built-In Gas Grills
    expect(isAccessoryOfKind(facts("blaze-2892462"), "cover")).toBe(false); // Propane Tank Hole Cover for Grill Carts
    expect(isAccessoryOfKind(facts("blaze-2965149"), "cover")).toBe(false); // Temperature Gauge Cover Plate
    expect(isAccessoryOfKind(facts("blaze-3044106"), "rotisserie")).toBe(true); // Rotisserie Kit for 32-Inch Grills
    expect(isAccessoryOfKind(facts("aog-2894406"), "rotisserie")).toBe(false); // a grill "With Rotisserie" is no rotisserie kit
  });
});
