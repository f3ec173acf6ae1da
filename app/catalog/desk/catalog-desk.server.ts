import { and, arrayContains, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { catalogChanges, productDescriptions, products } from "~/db/schema";
import { announceCatalogChange } from "../catalog-changes.server";
import { parseProductKey } from "../brands";
import { saleRunsNow } from "../product-columns.server";
import { forgetCatalogCaches } from "../queries.server";
import { deskChanges, deskValuesProblem, DESK_MESSAGES, type DeskChange, type DeskValues } from "./desk-values";
import type { CatalogDeskQuery } from "./catalog-desk";

/**
 * The catalogue desk's reads (`/catalog`, `/catalog/{productKey}`) and its one way to change a product,
 * `changeProducts`: the desk's forms and the CSV import both go through it, so every change is checked by
 * the same rules, refused when the product changed since it was shown, audited field by field, kept across
 * catalogue reloads (`desk_fields`) and announced to every store process (catalog-changes.server.ts).
 */

export const CATALOG_DESK_PAGE_SIZE = 50;
/** The audit rows a product's page shows. */
export const HISTORY_SHOWN = 100;

const deskValueColumns = {
  priceCents: products.priceCents,
  compareAtCents: products.compareAtCents,
  salePriceCents: products.salePriceCents,
  saleStartsAt: products.saleStartsAt,
  saleEndsAt: products.saleEndsAt,
  title: products.title,
  description: products.description,
  published: products.published,
  nonReturnable: products.nonReturnable,
  customMade: products.customMade,
  madeToOrder: products.madeToOrder,
};

const rowColumns = {
  key: products.key,
  id: products.sourceId,
  brand: products.brand,
  model: products.model,
  categories: products.categories,
  deskVersion: products.deskVersion,
  saleRunsNow,
  ...deskValueColumns,
};

export type DeskRow = {
  key: string;
  id: string;
  brand: string;
  model: string;
  categories: string[];
  deskVersion: number;
  saleRunsNow: boolean;
} & DeskValues;

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(ilike(products.key, pattern), ilike(products.title, pattern), ilike(products.model, pattern));
}

/** A page of the desk's table (in catalogue order), hidden products included. */
export async function listDeskProducts(db: Pick<Database, "select">, query: CatalogDeskQuery): Promise<{ rows: DeskRow[]; hasMore: boolean }> {
  const where = and(
    searchCondition(query.q),
    query.brand ? eq(products.brand, query.brand) : undefined,
    query.category ? arrayContains(products.categories, [query.category]) : undefined,
    query.hidden ? eq(products.published, false) : undefined,
    query.onSale ? sql`${products.salePriceCents} is not null` : undefined,
  );
  const rows = await db
    .select(rowColumns)
    .from(products)
    .where(where)
    .orderBy(asc(products.position))
    .limit(CATALOG_DESK_PAGE_SIZE + 1)
    .offset((query.page - 1) * CATALOG_DESK_PAGE_SIZE);
  return { rows: rows.slice(0, CATALOG_DESK_PAGE_SIZE), hasMore: rows.length > CATALOG_DESK_PAGE_SIZE };
}

export type ChangeRecord = typeof catalogChanges.$inferSelect;

/** A product as the desk shows it, with its last changes (newest first), or null. */
export async function deskProduct(db: Pick<Database, "select">, productKey: string): Promise<{ row: DeskRow; history: ChangeRecord[] } | null> {
  if (!parseProductKey(productKey)) return null;
  const [row] = await db.select(rowColumns).from(products).where(eq(products.key, productKey));
  if (!row) return null;
  const history = await db
    .select()
    .from(catalogChanges)
    .where(eq(catalogChanges.productKey, productKey))
    .orderBy(desc(catalogChanges.changedAt), desc(catalogChanges.id))
    .limit(HISTORY_SHOWN);
  return { row, history };
}

/** The products' desk values now, with their versions, for a CSV import's preview. */
export async function deskRowsOf(db: Pick<Database, "select">, keys: readonly string[]): Promise<Map<string, DeskRow>> {
  const found = new Map<string, DeskRow>();
  for (let start = 0; start < keys.length; start += 1000) {
    const rows = await db.select(rowColumns).from(products).where(inArray(products.key, keys.slice(start, start + 1000)));
    for (const row of rows) found.set(row.key, row);
  }
  return found;
}

/** The brands the desk can filter and export by. */
export async function deskBrands(db: Pick<Database, "selectDistinct">): Promise<string[]> {
  const rows = await db.selectDistinct({ brand: products.brand }).from(products).orderBy(asc(products.brand));
  return rows.map((row) => row.brand);
}

/** The categories the desk can filter and export by. */
export async function deskCategories(db: Pick<Database, "selectDistinct">): Promise<string[]> {
  const rows = await db.selectDistinct({ name: sql<string>`unnest(${products.categories})`.as("name") }).from(products);
  return rows.map((row) => row.name).sort((a, b) => a.localeCompare(b, "en-US"));
}

export interface ProductChange {
  productKey: string;
  /** The version the change was made from (the page's, or the import preview's). */
  expectedVersion: number;
  values: Partial<DeskValues>;
}

export type ChangeRefusal = { ok: false; reason: "not-found" | "stale" | "invalid"; productKey: string; message: string };
export type ChangeOutcome = { ok: true; changes: Array<{ productKey: string; changes: DeskChange[] }> } | ChangeRefusal;

/** The status a route answers a refusal with. */
export const CHANGE_STATUS: Record<ChangeRefusal["reason"], number> = { "not-found": 404, stale: 409, invalid: 400 };

/** Thrown inside a change's transaction to roll everything back; `changeProducts` answers its refusal. */
export class ChangeRefused extends Error {
  constructor(readonly refusal: ChangeRefusal) {
    super(refusal.message);
  }
}

export interface ChangeInput {
  staffEmail: string;
  /** `desk`, or `import:{id}`. */
  source: string;
  products: readonly ProductChange[];
}

/**
 * Changes products, all or none, in one transaction: see changeProductsIn. Committed, this process forgets
 * what it kept of the catalogue at once; the others when the NOTIFY reaches them (within milliseconds).
 */
export async function changeProducts(db: Database, input: ChangeInput): Promise<ChangeOutcome> {
  let outcome: ChangeOutcome;
  try {
    outcome = { ok: true, changes: await db.transaction((tx) => changeProductsIn(tx, input)) };
  } catch (error) {
    if (error instanceof ChangeRefused) return error.refusal;
    throw error;
  }
  if (outcome.changes.length > 0) forgetCatalogCaches(db);
  return outcome;
}

/**
 * Inside the caller's transaction: each product row is locked (in key order), refused with ChangeRefused when
 * its version is no longer `expectedVersion` or its new values break a rule; then written with its version
 * counted up, the fields in `desk_fields` (a catalogue reload keeps them), its audit rows, and, for a new
 * description, its stored reformatted copy dropped. Announced to every process once committed.
 */
export async function changeProductsIn(tx: Database, input: ChangeInput): Promise<Array<{ productKey: string; changes: DeskChange[] }>> {
  const sorted = [...input.products].sort((a, b) => (a.productKey < b.productKey ? -1 : a.productKey > b.productKey ? 1 : 0));
  const done: Array<{ productKey: string; changes: DeskChange[] }> = [];
  for (const change of sorted) {
    const [row] = await tx
      .select({ deskVersion: products.deskVersion, deskFields: products.deskFields, ...deskValueColumns })
      .from(products)
      .where(eq(products.key, change.productKey))
      .for("update");
    if (!row) throw new ChangeRefused({ ok: false, reason: "not-found", productKey: change.productKey, message: DESK_MESSAGES.notFound });
    if (row.deskVersion !== change.expectedVersion) {
      throw new ChangeRefused({ ok: false, reason: "stale", productKey: change.productKey, message: DESK_MESSAGES.stale });
    }
    const { deskVersion, deskFields, ...before } = row;
    const changes = deskChanges(before, change.values);
    if (changes.length === 0) continue;
    const next = { ...before, ...change.values };
    const problem = deskValuesProblem(next);
    if (problem) throw new ChangeRefused({ ok: false, reason: "invalid", productKey: change.productKey, message: problem });
    const changedFields = changes.map((item) => item.field);
    await tx
      .update(products)
      .set({
        ...Object.fromEntries(changedFields.map((field) => [field, next[field]])),
        deskFields: [...new Set([...deskFields, ...changedFields])],
        deskVersion: deskVersion + 1,
      })
      .where(eq(products.key, change.productKey));
    await tx.insert(catalogChanges).values(
      changes.map((item) => ({
        productKey: change.productKey,
        field: item.field,
        oldValue: item.before,
        newValue: item.after,
        staffEmail: input.staffEmail,
        source: input.source,
      })),
    );
    if (changedFields.includes("description")) {
      await tx.delete(productDescriptions).where(eq(productDescriptions.productKey, change.productKey));
    }
    done.push({ productKey: change.productKey, changes });
  }
  if (done.length > 0) await announceCatalogChange(tx);
  return done;
}
