import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BRAND_KEYS, catalogProductSchema, type CatalogProduct } from "./product";

export const CATALOG_DIR = path.resolve("catalog");

export interface CatalogFiles {
  /** Every record of the files that passed, in brand order (the spec's brand key order) then file order. */
  products: CatalogProduct[];
  /** sha256 of the files' names and bytes: a changed file means a reload. */
  contentHash: string;
  /** Brand files that could not be used (unreadable JSON, not a list, a bad record), each with why. */
  problems?: CatalogFileProblem[];
}

export interface CatalogFileProblem {
  brand: string;
  file: string;
  message: string;
}

/**
 * Reads and validates `catalog/{brand}.json`, file by file (spec section 8: a brand data file that
 * fails is logged and that brand skipped). A file that cannot be parsed, is not a list, or holds a
 * bad record is reported in `problems` and none of its records are used; the loader then keeps
 * that brand's last good data.
 */
export function readCatalogFiles(dir: string = CATALOG_DIR): CatalogFiles {
  const present = new Set(readdirSync(dir));
  const hash = createHash("sha256");
  const products: CatalogProduct[] = [];
  const problems: CatalogFileProblem[] = [];
  for (const brand of BRAND_KEYS) {
    const file = `${brand}.json`;
    if (!present.has(file)) continue;
    const bytes = readFileSync(path.join(dir, file));
    hash.update(file).update("\0").update(bytes);
    const read = readBrandFile(file, bytes.toString("utf8"));
    if (read.ok) products.push(...read.products);
    else problems.push({ brand, file, message: read.message });
  }
  return { products, contentHash: hash.digest("hex"), problems };
}

function readBrandFile(file: string, text: string): { ok: true; products: CatalogProduct[] } | { ok: false; message: string } {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(records)) return { ok: false, message: `${file} does not hold a list of products` };
  const products: CatalogProduct[] = [];
  for (const [index, record] of records.entries()) {
    const parsed = catalogProductSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, message: `${file} record ${index}: ${issue.path.join(".")} ${issue.message}` };
    }
    products.push(parsed.data);
  }
  return { ok: true, products };
}
