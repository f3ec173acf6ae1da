import type { SpecificationEntry } from "~/db/schema";

/**
 * What the Return Policy needs to know about an ordered product, read from the catalogue (the
 * `products` row: brand, categories, specifications, and the merchant's flags). The catalogue files
 * carry no "non-returnable" flag of their own, so the rules are these (ADR 023, docs/returns.md):
 *
 * - **The brand with its own rules** is The Outdoor Plus: it is the one brand that builds to order
 *   (4 - 6 weeks, app/catalog/lead-time.ts, spec section 9), and its fire pits and fire bowls are the
 *   "made-to-order or custom features" the policy names. Every one of its products counts as made to
 *   order. One constant, STRICT_BRAND; a test holds it equal to the lead-time rule.
 * - **Custom**: the store's own products (brand `custom_product`, the LOVE RUB seasoning), a food
 *   made for the store that cannot be taken back once it has left.
 * - **Special-order, made-to-order, clearance, non-returnable**: a specification entry says so
 *   ("Special Order: Yes", "Made to Order: Yes", "Clearance: Yes", "Custom: Yes", "Returnable: No"), so
 *   the catalogue can mark a product without a code change.
 * - **The merchant's flags** (the catalogue desk: `non_returnable`, `custom_made`, `made_to_order` on the
 *   row) count besides these rules: a flag set makes the product non-returnable, custom or made to order
 *   whatever the rules above say; a flag not set takes nothing away from them.
 * - **Freight**: a catalogue weight of 150 lb or more (the most a parcel carrier takes in one box);
 *   without a weight, the kinds of product the Shipping Policy sends by freight (whole grills,
 *   islands, kitchen packages, freestanding ovens, fireplaces, refrigeration). A product no longer in
 *   the catalogue counts as freight: a photo is asked for rather than skipped.
 */

export const STRICT_BRAND = "the_outdoor_plus";
export const STRICT_BRAND_NAME = "The Outdoor Plus";
export const OWN_PRODUCTS_BRAND = "custom_product";
export const FREIGHT_MIN_POUNDS = 150;

/** The most specific categories whose products travel by freight when the catalogue gives no weight. */
const FREIGHT_CATEGORIES: ReadonlySet<string> = new Set([
  "Gas Grills",
  "Built-In Gas Grills",
  "Built-in Kamado Grills",
  "Kamado Grills & Smokers",
  "Charcoal BBQ Grills",
  "Pellet Grills & Wood Pellet Smokers",
  "Outdoor Flat Top Grills & Gas Griddles",
  "Outdoor Kitchen Islands",
  "Outdoor Kitchen Equipment Packages",
  "Freestanding Pizza Ovens",
  "Outdoor Gas Fireplaces",
  "Outdoor Compact Refrigerators",
  "Outdoor Ice Makers & Ice Machines",
  "Outdoor Kegerators & Beverage Dispensers",
  "Outdoor Wine Coolers",
]);

export interface ProductReturnFacts {
  brand: string;
  /** The brand with its own rules (made to order, custom features). */
  strictBrand: boolean;
  madeToOrder: boolean;
  custom: boolean;
  specialOrder: boolean;
  clearance: boolean;
  nonReturnable: boolean;
  freight: boolean;
}

export interface CatalogueFacts {
  brand: string;
  categories: string[];
  specifications: SpecificationEntry[];
  /** The merchant's flags on the row (absent: not set). */
  nonReturnable?: boolean;
  customMade?: boolean;
  madeToOrder?: boolean;
}

function specification(specifications: SpecificationEntry[], name: string): string | null {
  const wanted = name.toLowerCase();
  for (const entry of specifications) {
    for (const [key, value] of Object.entries(entry)) if (key.trim().toLowerCase() === wanted) return value.trim();
  }
  return null;
}

const says = (value: string | null, word: "yes" | "no") => value !== null && value.toLowerCase().startsWith(word);

function pounds(specifications: SpecificationEntry[]): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)/.exec(specification(specifications, "Weight") ?? "");
  return match ? Number(match[1]) : null;
}

/** The facts of one ordered product: its catalogue row, or null when it has left the catalogue (then only its brand is known). */
export function returnFactsOf(product: CatalogueFacts | null, orderedBrand: string): ProductReturnFacts {
  const brand = product?.brand ?? orderedBrand;
  const strictBrand = brand === STRICT_BRAND;
  const specs = product?.specifications ?? [];
  const weight = pounds(specs);
  const leaf = product?.categories.at(-1) ?? "";
  return {
    brand,
    strictBrand,
    madeToOrder: product?.madeToOrder === true || strictBrand || says(specification(specs, "Made to Order"), "yes"),
    custom: product?.customMade === true || brand === OWN_PRODUCTS_BRAND || says(specification(specs, "Custom"), "yes"),
    specialOrder: says(specification(specs, "Special Order"), "yes"),
    clearance: says(specification(specs, "Clearance"), "yes"),
    nonReturnable: product?.nonReturnable === true || says(specification(specs, "Returnable"), "no"),
    freight: product === null || (weight !== null ? weight >= FREIGHT_MIN_POUNDS : FREIGHT_CATEGORIES.has(leaf)),
  };
}
