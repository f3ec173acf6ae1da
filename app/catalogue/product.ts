import { z } from "zod";

/**
 * The normalised catalogue record (what `catalog/{brand}.json` holds and what
 * the app loads). Shape follows the spec, section 3 ("Product").
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
export const DISPLAYED_BRANDS = [
  "alfresco",
  "american_made_grills",
  "aog",
  "artisan",
  "blackstone",
  "blaze",
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
] as const satisfies readonly BrandKey[];

/** Id of the store's own seasoning, LOVE RUB. */
export const OWN_SEASONING_ID = "LOVE-RUB-001";

const BRAND_KEY_SET: ReadonlySet<string> = new Set(BRAND_KEYS);

export function isBrandKey(value: unknown): value is BrandKey {
  return typeof value === "string" && BRAND_KEY_SET.has(value);
}

/**
 * Brand key as displayed: underscores become spaces and each word is
 * capitalised (`the_outdoor_plus` -> `The Outdoor Plus`, `aog` -> `Aog`).
 */
export function brandDisplayName(key: string): string {
  return key
    .split("_")
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Two decimals at most, tolerant of binary floating point (e.g. 8351.55). */
function hasAtMostTwoDecimals(value: number): boolean {
  const cents = value * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

/** An absolute URL path such as `/images/products/blaze/3159834/1.svg`. */
const urlPathSchema = z.string().regex(/^\/[^\s]*$/, "must be an absolute URL path without spaces");

const specificationSchema = z.record(z.string().min(1), z.string()).refine((entry) => Object.keys(entry).length === 1, {
  message: "a specification entry has exactly one key",
});

export const catalogueProductSchema = z.strictObject({
  /** Unique across the whole catalogue; numeric ids kept as their decimal string. */
  Id: z.string().min(1),
  Model: z.string(),
  brand: z.enum(BRAND_KEYS),
  Title: z.string().trim().min(1),
  /** USD, positive, at most 2 decimals. */
  Price: z.number().positive().finite().refine(hasAtMostTwoDecimals, { message: "price has at most 2 decimals" }),
  Image: urlPathSchema,
  Other_image: z.array(urlPathSchema).min(1),
  /** Path of names from the root; the first is exactly "Home". */
  Category: z
    .array(z.string().min(1))
    .min(1)
    .refine((path) => path[0] === "Home", { message: 'the first category is "Home"' }),
  /** List of single-key objects, name -> value. */
  Specifications: z.array(specificationSchema),
  Description: z.string(),
  image_count: z.number().int().min(1),
});

export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;
export type Specification = CatalogueProduct["Specifications"][number];

/** The `{brand}-{Id}` key used in /product/{brand}-{Id} and stored descriptions. */
export function productKey(product: Pick<CatalogueProduct, "brand" | "Id">): string {
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

/** Value of the first specification whose name matches one of `names` (case-insensitive). */
export function specValue(product: Pick<CatalogueProduct, "Specifications">, ...names: string[]): string | undefined {
  const wanted = names.map((name) => name.toLowerCase());
  for (const name of wanted) {
    for (const entry of product.Specifications) {
      for (const [key, value] of Object.entries(entry)) {
        if (key.toLowerCase() === name && value.trim() !== "") return value.trim();
      }
    }
  }
  return undefined;
}
