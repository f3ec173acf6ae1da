import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BRAND_KEYS, catalogProductSchema, type CatalogProduct } from "./product";

export const CATALOG_DIR = path.resolve("catalog");

export interface CatalogFiles {
  /** Every record, in brand order (the spec's brand key order) then file order. */
  products: CatalogProduct[];
  /** sha256 of the files' names and bytes: a changed file means a reload. */
  contentHash: string;
}

/** Reads and validates `catalog/{brand}.json`; a bad record fails the whole read. */
export function readCatalogFiles(dir: string = CATALOG_DIR): CatalogFiles {
  const present = new Set(readdirSync(dir));
  const hash = createHash("sha256");
  const products: CatalogProduct[] = [];
  for (const brand of BRAND_KEYS) {
    const file = `${brand}.json`;
    if (!present.has(file)) continue;
    const bytes = readFileSync(path.join(dir, file));
    hash.update(file).update("\0").update(bytes);
    const records: unknown = JSON.parse(bytes.toString("utf8"));
    if (!Array.isArray(records)) throw new Error(`${file} does not hold a list of products`);
    records.forEach((record, index) => {
      const parsed = catalogProductSchema.safeParse(record);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${file} record ${index}: ${issue.path.join(".")} ${issue.message}`);
      }
      products.push(parsed.data);
    });
  }
  return { products, contentHash: hash.digest("hex") };
}
