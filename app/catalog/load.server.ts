import { count, eq, inArray, max, notInArray, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products, storeSettings } from "~/db/schema";
import { readCatalogFiles, type CatalogFiles } from "./catalog-files.server";
import { productKey, type CatalogProduct } from "./product";
import { announceCatalogChange } from "./catalog-changes.server";
import { forgetCatalogCaches } from "./queries.server";
import { productFacts } from "./card-facts.server";
import { productImages, type PhotoIndex } from "./photos.server";
import { normalizeSpecs } from "./spec-values";
import { priceToCents } from "./store-product";
import { logError } from "~/observability/logger.server";

const HASH_KEY = "catalog_hash";
const INSERT_BATCH = 500;
/**
 * Bumped when what the load derives from the files changes (such as the
 * normalized specification values), so a database loaded by an older build
 * is reloaded even though the files are the same.
 */
const LOAD_FORMAT = "card-facts-1";

/**
 * What the store records after a load, and compares with its files at start-up: the files, what
 * the load derives from them, and the photos (a product's image addresses are its photos' when it
 * has any, else its drawings', photos.server.ts), so adding a photo reloads the catalogue.
 */
export function catalogLoadHash(files: Pick<CatalogFiles, "contentHash">, photos: PhotoIndex | null = null): string {
  return `${files.contentHash}:${LOAD_FORMAT}:${photos ? `photos-${photos.digest}` : "drawings"}`;
}

/**
 * Records `files` as loaded without loading them: for a database whose products were
 * made from these files another way (the benchmark's synthetic catalogue), so a store
 * started on it serves those products instead of reloading the real ones.
 */
export async function markCatalogLoaded(db: Database, files: Pick<CatalogFiles, "contentHash">): Promise<void> {
  const hash = catalogLoadHash(files, null);
  await db
    .insert(storeSettings)
    .values({ key: HASH_KEY, value: hash })
    .onConflictDoUpdate({ target: storeSettings.key, set: { value: hash, updatedAt: new Date() } });
}

export type LoadResult = { loaded: false } | { loaded: true; count: number; kept: { brand: string; count: number }[] };

/**
 * Loads the catalog files into the products table when the table is empty
 * or the files changed since the last load. Everything happens in one
 * transaction: a failure leaves the previous catalog in place. A brand whose
 * file failed (files.problems) is logged and keeps its last good products.
 */
export async function loadCatalogIfChanged(
  db: Database,
  files: CatalogFiles = readCatalogFiles(),
  { onProgress, photos = null }: { onProgress?: (done: number, total: number) => void; photos?: PhotoIndex | null } = {},
): Promise<LoadResult> {
  const [{ value: existing }] = await db.select({ value: count() }).from(products);
  const [stored] = await db.select().from(storeSettings).where(eq(storeSettings.key, HASH_KEY));
  const hash = catalogLoadHash(files, photos);
  if (existing > 0 && stored?.value === hash) return { loaded: false };

  const failed = (files.problems ?? []).map((problem) => problem.brand);
  for (const problem of files.problems ?? []) logError(`Catalog: ${problem.message}. Keeping the last good ${problem.brand} products.`);
  const kept = await db.transaction(async (tx) => {
    const deskEdits = await deskEditsOf(tx);
    await (failed.length > 0 ? tx.delete(products).where(notInArray(products.brand, failed)) : tx.delete(products));
    // Kept rows keep their positions; new rows come after them.
    const [{ value: last }] = await tx.select({ value: max(products.position) }).from(products);
    const offset = (last ?? -1) + 1;
    const rows = files.products.map((record, index) => productRow(record, offset + index, photos));
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await tx.insert(products).values(rows.slice(start, start + INSERT_BATCH));
      onProgress?.(Math.min(start + INSERT_BATCH, rows.length), rows.length);
    }
    await reapplyDeskEdits(tx, deskEdits);
    await tx
      .insert(storeSettings)
      .values({ key: HASH_KEY, value: hash })
      .onConflictDoUpdate({ target: storeSettings.key, set: { value: hash, updatedAt: new Date() } });
    await announceCatalogChange(tx);
    if (failed.length === 0) return [];
    const counts = await tx
      .select({ brand: products.brand, count: count() })
      .from(products)
      .where(inArray(products.brand, failed))
      .groupBy(products.brand);
    return failed.map((brand) => ({ brand, count: counts.find((row) => row.brand === brand)?.count ?? 0 }));
  });
  forgetCatalogCaches(db);
  return { loaded: true, count: files.products.length, kept };
}

type DeskEdit = Pick<typeof products.$inferSelect, "key" | "deskFields" | "deskVersion"> & Partial<typeof products.$inferSelect>;

/** What the catalogue desk changed (app/catalog/desk): the fields it names in `desk_fields`, with their values. */
async function deskEditsOf(tx: Pick<Database, "select">): Promise<DeskEdit[]> {
  return tx.select().from(products).where(sql`cardinality(${products.deskFields}) > 0`);
}

/** After a reload, the desk's values win over the files' for the fields the desk changed (docs/catalogue-desk.md). */
async function reapplyDeskEdits(tx: Pick<Database, "update">, edits: readonly DeskEdit[]): Promise<void> {
  for (const edit of edits) {
    const values = Object.fromEntries(edit.deskFields.filter((field) => field in edit).map((field) => [field, edit[field as keyof DeskEdit]]));
    await tx
      .update(products)
      .set({ ...values, deskFields: edit.deskFields, deskVersion: edit.deskVersion })
      .where(eq(products.key, edit.key));
  }
}

/**
 * The products-table row of a catalog record at a position in the catalog. Its image addresses
 * are the record's photos when PRODUCT_PHOTOS_DIR has any, else its drawings (versioned, image-url.ts).
 */
export function productRow(record: CatalogProduct, position: number, photos: PhotoIndex | null = null): typeof products.$inferInsert {
  const images = productImages(photos, record.brand, record.Id, record.image_count);
  return {
    key: productKey(record),
    sourceId: record.Id,
    brand: record.brand,
    model: record.Model,
    title: record.Title,
    priceCents: priceToCents(record.Price),
    image: images[0] ?? record.Image,
    otherImages: images,
    categories: record.Category,
    specifications: record.Specifications,
    description: record.Description,
    imageCount: record.image_count,
    specValues: normalizeSpecs(record.Specifications),
    facts: productFacts(record),
    position,
  };
}
