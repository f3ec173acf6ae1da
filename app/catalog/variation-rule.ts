import { categoryFamily } from "./family";
import { modelPrefix } from "./variations";

/**
 * Which products count as variations of each other (spec section 9: "Some [brands] require equal
 * model length, some unequal"). A sibling is the same product in another fuel, size, hinge or
 * finish, never an accessory, cart or package that happens to share the model prefix.
 *
 * The model length is its number of dash-separated segments. Derived from the catalog's families
 * (products sharing a brand and model prefix; see variation-rule.test.ts):
 * - "equal": siblings have as many segments as the product. Blaze (`BLZ-4-CHAR` and its cart
 *   `BLZ-4-CART-SC`), Fire Magic, American Made Grills (`ENC54-NG` and its `-3PC-PROMO` package) and
 *   Breeo (`BR-X24P` and its seating set `BR-X24P-BBB`) file other kinds under longer models; the
 *   other brands listed here only have families of equal length.
 * - "any": the length may differ. AOG (`36NBT` / `36NBT-00SP`), Alfresco (`AXE-PZA-NG` /
 *   `AXE-PZA-BI-NG`), Artisan (`ART-BC24` / `ART-BC24-L`) and Napoleon (`P500RSIBPK-3` /
 *   `P500RSIBPK-3-PHM`) add segments for versions of the same product.
 * In every brand a sibling must also be of the same kind (categoryFamily): a grill never offers a
 * cover, a door never a cabinet.
 */
export const MODEL_LENGTH_RULE: Readonly<Record<string, "equal" | "any">> = {
  alfresco: "any",
  american_fyre_design: "equal",
  american_made_grills: "equal",
  aog: "any",
  artisan: "any",
  blaze: "equal",
  breeo: "equal",
  delta: "equal",
  fire_magic: "equal",
  fontana: "equal",
  green_mountain: "equal",
  napoleon: "any",
  the_outdoor_plus: "equal",
  twin_eagles: "equal",
};

export type SiblingCandidate = { id: string; brand: string; model: string; title: string; categories: string[] };

export function modelLength(model: string): number {
  return model.trim().split("-").length;
}

/** Whether `candidate` is a variation of `current`: same brand and prefix, the brand's length rule, the same kind. */
export function isVariationSibling(current: SiblingCandidate, candidate: SiblingCandidate): boolean {
  if (candidate.brand !== current.brand || candidate.model === current.model) return false;
  const prefix = modelPrefix(current.brand, current.model);
  if (!prefix || modelPrefix(candidate.brand, candidate.model) !== prefix) return false;
  if (MODEL_LENGTH_RULE[current.brand] === "equal" && modelLength(candidate.model) !== modelLength(current.model)) return false;
  return kindOf(candidate) === kindOf(current);
}

function kindOf(product: SiblingCandidate) {
  // The brand only matters to tell the seasoning apart, which has no variations.
  return categoryFamily({ Id: product.id, Title: product.title, Category: product.categories });
}
