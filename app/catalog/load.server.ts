import { count, eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products, storeSettings } from "~/db/schema";
import { readCatalogFiles, type CatalogFiles } from "./catalog-files.server";
import { productKey, type CatalogProduct } from "./product";
import { forgetCatalogCaches } from "./queries.server";
import { normalizeSpecs } from "./spec-values";
import { priceToCents } from "./store-product";

const HASH_KEY = "catalog_hash";
const INSERT_BATCH = 500;
/**
 * Bumped when what the load derives from the files changes (such as the
 * normalized specification values), so a database loaded by an older build
 * is reloaded even though the files are the same.
 */
const LOAD_FORMAT = "spec-values-1";

export type LoadResult = { loaded: false } | { loaded: true; count: number };

/**
 * Loads the catalog files into the products table when the table is empty
 * or the files changed since the last load. Everything happens in one
 * transaction: a failure leaves the previous catalog in place.
 */
export async function loadCatalogIfChanged(
  db: Database,
  files: CatalogFiles = readCatalogFiles(),
): Promise<LoadResult> {
  const [{ value: existing }] = await db.select({ value: count() }).from(products);
  const [stored] = await db.select().from(storeSettings).where(eq(storeSettings.key, HASH_KEY));
  const hash = `${files.contentHash}:${LOAD_FORMAT}`;
  if (existing > 0 && stored?.value === hash) return { loaded: false };

  await db.transaction(async (tx) => {
    await tx.delete(products);
    const rows = files.products.map(productRow);
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await tx.insert(products).values(rows.slice(start, start + INSERT_BATCH));
    }
    await tx
      .insert(storeSettings)
      .values({ key: HASH_KEY, value: hash })
      .onConflictDoUpdate({ target: storeSettings.key, set: { value: hash, updatedAt: new Date() } });
  });
  forgetCatalogCaches(db);
  return { loaded: true, count: files.products.length };
}

/** The products-table row of a catalog record at a position in the catalog. */
export function productRow(record: CatalogProduct, position: number): typeof products.$inferInsert {
  return {
    key: productKey(record),
    sourceId: record.Id,
    brand: record.brand,
    model: record.Model,
    title: record.Title,
    priceCents: priceToCents(record.Price),
    image: record.Image,
    otherImages: record.Other_image,
    categories: record.Category,
    specifications: record.Specifications,
    description: record.Description,
    imageCount: record.image_count,
    specValues: normalizeSpecs(record.Specifications),
    position,
  };
}
