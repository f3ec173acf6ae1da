import { hasControlCharacters } from "~/utils/request-text";

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
 * Each brand as its maker spells it (`aog` is AOG, not Aog; American Fyre
 * Designs has an s). A table, not title case: capitals and spacing are the
 * makers' own, and a new brand key must be added here to be shown.
 */
const BRAND_DISPLAY_NAMES: Readonly<Record<BrandKey, string>> = {
  alfresco: "Alfresco",
  american_made_grills: "American Made Grills",
  aog: "AOG",
  artisan: "Artisan",
  blackstone: "Blackstone",
  blaze: "Blaze",
  breeo: "Breeo",
  bromic_heating: "Bromic Heating",
  coyote: "Coyote",
  delta: "Delta",
  fire_magic: "Fire Magic",
  fontana: "Fontana",
  green_mountain: "Green Mountain",
  napoleon: "Napoleon",
  american_fyre_design: "American Fyre Designs",
  the_outdoor_plus: "The Outdoor Plus",
  twin_eagles: "Twin Eagles",
  primo: "Primo",
  summerset: "Summerset",
  ledge_lounger: "Ledge Lounger",
  mont_alpi: "Mont Alpi",
  custom_product: "LOVE RUB",
};

/** The brand's display name; an unknown key (never from our catalog) is shown with its underscores as spaces. */
export function brandDisplayName(key: string): string {
  return isBrandKey(key) ? BRAND_DISPLAY_NAMES[key] : key.replace(/_/g, " ").trim();
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
 * Returns null for an unknown brand, an empty Id or one with a control character (request-text.ts).
 */
export function parseProductKey(key: string): { brand: BrandKey; Id: string } | null {
  if (typeof key !== "string" || hasControlCharacters(key)) return null;
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

/**
 * Names that may open a title, longest first when matched. Display names of
 * the brands plus the manufacturer names that appear in the data
 * ("American Outdoor Grill" is AOG, "Delta Heat" is Delta, a "Green Moutain"
 * typo, "American Fyre Designs" with an s).
 */
const BRAND_TITLE_NAMES: ReadonlyArray<readonly [string, BrandKey]> = [
  ["Alfresco", "alfresco"],
  ["American Made Grills", "american_made_grills"],
  ["American Outdoor Grill", "aog"],
  ["AOG", "aog"],
  ["Artisan", "artisan"],
  ["Blackstone", "blackstone"],
  ["Blaze", "blaze"],
  ["Breeo", "breeo"],
  ["Bromic Heating", "bromic_heating"],
  ["Bromic", "bromic_heating"],
  ["Coyote", "coyote"],
  ["Delta Heat", "delta"],
  ["Delta", "delta"],
  ["Fire Magic", "fire_magic"],
  ["Fontana Forni", "fontana"],
  ["Fontana", "fontana"],
  ["Green Mountain Grills", "green_mountain"],
  ["Green Mountain", "green_mountain"],
  ["Green Moutain", "green_mountain"],
  ["Napoleon", "napoleon"],
  ["American Fyre Designs", "american_fyre_design"],
  ["American Fyre Design", "american_fyre_design"],
  ["The Outdoor Plus", "the_outdoor_plus"],
  ["Twin Eagles", "twin_eagles"],
  ["Primo", "primo"],
  ["Summerset", "summerset"],
  ["Ledge Lounger", "ledge_lounger"],
  ["Mont Alpi", "mont_alpi"],
];

export const BRAND_NAMES_LONGEST_FIRST = [...BRAND_TITLE_NAMES].sort(
  (a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
);

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The title without a leading brand name ("American Made Grills Estate Power
 * Burner" -> "Estate Power Burner"), so that words of a brand name such as
 * "Grills" are not read as the product type.
 */
export function stripBrandPrefix(title: string): string {
  const text = title.replace(/\s+/g, " ").trim();
  for (const [name] of BRAND_NAMES_LONGEST_FIRST) {
    const match = new RegExp(`^${escapeRegExp(name)}(?![A-Za-z0-9])\\s*`, "i").exec(text);
    if (match) return text.slice(match[0].length);
  }
  return text;
}
