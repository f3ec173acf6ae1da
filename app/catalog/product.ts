import { z } from "zod";
import { BRAND_KEYS } from "./brands";

export * from "./brands";

/**
 * The normalized catalog record (what `catalog/{brand}.json` holds and what
 * the app loads). Shape follows the spec, section 3 ("Product").
 */

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

export const catalogProductSchema = z.strictObject({
  /** Unique across the whole catalog; numeric ids kept as their decimal string. */
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

export type CatalogProduct = z.infer<typeof catalogProductSchema>;
export type Specification = CatalogProduct["Specifications"][number];

/** Value of the first specification whose name matches one of `names` (case-insensitive). */
export function specValue(product: Pick<CatalogProduct, "Specifications">, ...names: string[]): string | undefined {
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
