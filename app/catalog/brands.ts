/**
 * Brand keys, display names and product keys: plain values the browser
 * needs too, kept apart from the zod schema in product.ts so that client
 * bundles carry no zod.
 */

/** The 21 brand keys of the spec plus `custom_product`, in the spec's order. */
export const BRAND_KEYS = [
  "alfresco",
  "american_made_grills",
  "aog",
  "artisan",
  "blackstone",
  "blaze",
  "breeo",
  "bromic_heating",
  "coyote",
  "delta",
  "fire_magic",
  "fontana",
  "green_mountain",
  "napoleon",
  "american_fyre_design",
  "the_outdoor_plus",
  "twin_eagles",
  "primo",
  "summerset",
  "ledge_lounger",
  "mont_alpi",
  "custom_product",
] as const;

export type BrandKey = (typeof BRAND_KEYS)[number];

/**
 * The 20 brands shown in the header menu and the product-list dropdown, in the
 * order of the spec's "Displayed brands" list (no `breeo`, no `custom_product`).
 */
export const DISPLAYED_BRANDS = BRAND_KEYS.filter(
  (key): key is Exclude<BrandKey, "breeo" | "custom_product"> => key !== "breeo" && key !== "custom_product",
);

/** Id of the store's own seasoning, LOVE RUB. */
export const OWN_SEASONING_ID = "LOVE-RUB-001";

/** LOVE RUB's price in USD. */
export const OWN_SEASONING_PRICE = 15.99;

const BRAND_KEY_SET: ReadonlySet<string> = new Set(BRAND_KEYS);

export function isBrandKey(value: unknown): value is BrandKey {
  return typeof value === "string" && BRAND_KEY_SET.has(value);
}

/**
 * Brand key as displayed: underscores become spaces and each word is
 * capitalized (`the_outdoor_plus` -> `The Outdoor Plus`, `aog` -> `Aog`).
 */
export function brandDisplayName(key: string): string {
  return key
    .split("_")
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** The `{brand}-{Id}` key used in /product/{brand}-{Id} and stored descriptions. */
export function productKey(product: { brand: string; Id: string }): string {
  return `${product.brand}-${product.Id}`;
}

/** Longest first, so a key never matches a shorter brand that is its prefix. */
const BRAND_KEYS_LONGEST_FIRST: readonly BrandKey[] = [...BRAND_KEYS].sort(
  (a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)
);

/**
 * Splits a `{brand}-{Id}` path segment. Brand keys contain underscores but
 * never dashes, and Ids may contain dashes (`custom_product-LOVE-RUB-001`), so
 * the brand is the known key that prefixes the segment followed by a dash.
 * Returns null for an unknown brand or an empty Id.
 */
export function parseProductKey(key: string): { brand: BrandKey; Id: string } | null {
  if (typeof key !== "string") return null;
  for (const brand of BRAND_KEYS_LONGEST_FIRST) {
    const prefix = `${brand}-`;
    if (key.startsWith(prefix)) {
      const id = key.slice(prefix.length);
      if (id.length === 0 || id.trim() !== id) return null;
      return { brand, Id: id };
    }
  }
  return null;
}
