import type { Specification } from "./product";

/**
 * Variation siblings and specification comparison (spec section 9).
 * Siblings share the brand and the model prefix: the first one or two
 * dash-separated segments of the model, depending on how the brand numbers
 * its models (`BLZ-5LTE3-NG` and `BLZ-5LTE3-LP` share `BLZ-5LTE3`).
 */
export const VARIATION_PREFIX_SEGMENTS: Readonly<Record<string, 1 | 2>> = {
  alfresco: 2,
  american_fyre_design: 1,
  american_made_grills: 1,
  aog: 1,
  artisan: 2,
  blaze: 2,
  breeo: 2,
  delta: 1,
  fire_magic: 1,
  fontana: 1,
  green_mountain: 1,
  napoleon: 1,
  the_outdoor_plus: 2,
  twin_eagles: 1,
};

/** Fields that differ between siblings without being a choice a shopper makes. */
export const IGNORED_COMPARISON_FIELDS: ReadonlySet<string> = new Set([
  "Hose Included", "Main Grilling Area", "Made In USA", "Collection", "Height", "Depth", "Weight", "Width",
  "Includes Paper Towel Holder", "BTU", "Cooking Grate Material", "Rotisserie Burner BTUs", "Side Burner",
  "Pizza Count", "Cooking Grid Dimensions", "Opening Width", "Total Grilling Area", "Exterior Material",
  "Grill Model", "Grill Type", "Cut Out Depth", "Number Of Doors", "Secondary Grilling Area",
  "Spring Assisted Hood", "Material", "Size",
]);

export const CONFIGURATION_NOT_AVAILABLE = "Configuration Not Available, Try different options.";

/** The model prefix siblings share, or null for brands without variations or a blank model. */
export function modelPrefix(brand: string, model: string): string | null {
  const segments = VARIATION_PREFIX_SEGMENTS[brand];
  const trimmed = model.trim();
  if (!segments || trimmed === "") return null;
  const parts = trimmed.split("-");
  return parts.slice(0, segments).join("-");
}

export interface SpecDifference {
  newSpecification: string;
  newValue: string;
}

export interface SpecComparison {
  model: string;
  differences: SpecDifference[];
}

export function specMap(specifications: readonly Specification[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of specifications) {
    for (const [name, value] of Object.entries(entry)) if (!map.has(name)) map.set(name, value);
  }
  return map;
}

/**
 * What changes when moving from `current` to `other`: every specification of
 * `current` that `other` also has, is not ignored, and has another value.
 * Returns null when `other` has no model (the spec logs and returns null).
 */
export function compareSpecifications(
  current: { specifications: readonly Specification[] },
  other: { model: string; specifications: readonly Specification[] },
): SpecComparison | null {
  if (!other.model.trim()) return null;
  const mine = specMap(current.specifications);
  const theirs = specMap(other.specifications);
  const differences: SpecDifference[] = [];
  for (const [name, value] of mine) {
    if (IGNORED_COMPARISON_FIELDS.has(name) || !theirs.has(name)) continue;
    const newValue = theirs.get(name)?.trim() || "N/A";
    if (newValue !== value.trim()) differences.push({ newSpecification: name, newValue });
  }
  return { model: other.model, differences };
}

export interface VariationOption {
  name: string;
  values: string[];
  selected: string;
}

type Variant = { key: string; model: string; specifications: readonly Specification[] };

/**
 * The dropdowns for a product: each specification in which some sibling
 * differs, with the values found across the product and its siblings.
 */
export function variationOptions(current: Variant, siblings: readonly Variant[]): VariationOption[] {
  const names = new Set<string>();
  for (const sibling of siblings) {
    for (const difference of compareSpecifications(current, sibling)?.differences ?? []) {
      names.add(difference.newSpecification);
    }
  }
  const currentSpecs = specMap(current.specifications);
  return [...names].map((name) => {
    const values = new Set<string>([currentSpecs.get(name) ?? ""]);
    for (const sibling of siblings) {
      const value = specMap(sibling.specifications).get(name);
      if (value) values.add(value);
    }
    return {
      name,
      values: [...values].filter(Boolean).sort((a, b) => a.localeCompare(b)),
      selected: currentSpecs.get(name) ?? "",
    };
  });
}

/** The product (current or sibling) whose values match every chosen one, or null. */
export function findVariant<T extends Variant>(
  candidates: readonly T[],
  chosen: Readonly<Record<string, string>>,
): T | null {
  const entries = Object.entries(chosen);
  return (
    candidates.find((candidate) => {
      const specs = specMap(candidate.specifications);
      return entries.every(([name, value]) => specs.get(name) === value);
    }) ?? null
  );
}
