import { and, asc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import type { ServiceDeps } from "~/store-runtime";
import { products, productStock, stockMovements, type StockPolicy } from "~/db/schema";
import { csvDocument, csvLine } from "~/utils/csv";
import { hasControlCharacters } from "~/utils/request-text";
import { LOW_STOCK_THRESHOLD } from "./availability";
import { queueBackInStock } from "./back-in-stock.server";
import { movementsOf, setOnHand, type SetOnHandResult } from "./stock.server";
import type { StockQuery } from "./stock-desk";
import { parseCount, parseReason, type StockNow } from "./stock-import";

/**
 * The staff stock desk's reads (`/stock`, `/stock/{productKey}`, `/stock.csv`) and its one form, "Set on hand".
 * The counts themselves change only through stock.server.ts (setOnHand) and the CSV import
 * (stock-import.server.ts).
 */

/** Products per page of the desk's table. */
export const STOCK_PAGE_SIZE = 50;
/** Low-stock products the desk's first page lists above the table. */
export const LOW_STOCK_SHOWN = 20;

export interface StockRow {
  productKey: string;
  title: string;
  brand: string | null;
  model: string | null;
  policy: StockPolicy;
  onHand: number;
  /** Held by checkouts paying now. */
  reserved: number;
  /** On hand less held (0 or more). */
  available: number;
  leadTime: string | null;
  /** The last movement of its count (a sale, a return, a count by staff), if any. */
  lastChange: Date | null;
}

const available = sql<number>`greatest(0, ${productStock.onHand} - ${productStock.reserved})`;
const isLow = and(eq(productStock.policy, "tracked"), sql`${productStock.onHand} - ${productStock.reserved} <= ${LOW_STOCK_THRESHOLD}`);

const columns = {
  productKey: productStock.productKey,
  title: sql<string>`coalesce(${products.title}, ${productStock.productKey})`,
  brand: products.brand,
  model: products.model,
  policy: productStock.policy,
  onHand: productStock.onHand,
  reserved: productStock.reserved,
  available: available.mapWith(Number),
  leadTime: productStock.leadTime,
  lastChange:
    sql<Date | null>`(select max(${stockMovements.createdAt}) from ${stockMovements} where ${stockMovements.productKey} = ${productStock.productKey})`.mapWith(
      stockMovements.createdAt,
    ),
};

function rowsQuery(db: Pick<Database, "select">, where: SQL | undefined) {
  return db.select(columns).from(productStock).leftJoin(products, eq(products.key, productStock.productKey)).where(where);
}

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  // `%`, `_` and `\` typed by staff match themselves, not anything.
  const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(
    ilike(productStock.productKey, pattern),
    ilike(products.title, pattern),
    ilike(products.model, pattern),
    ilike(products.brand, pattern),
  );
}

/** A page of the desk's table: every product (in catalogue order), or those the search finds, or the low ones (fewest available first). */
export async function listStock(db: Pick<Database, "select">, query: StockQuery): Promise<{ rows: StockRow[]; hasMore: boolean }> {
  const where = and(searchCondition(query.q), query.low ? isLow : undefined);
  const order = query.low
    ? [asc(sql`${productStock.onHand} - ${productStock.reserved}`), asc(sql`coalesce(${products.title}, ${productStock.productKey})`)]
    : [sql`${products.position} asc nulls last`];
  const rows = await rowsQuery(db, where)
    .orderBy(...order, asc(productStock.productKey))
    .limit(STOCK_PAGE_SIZE + 1)
    .offset((query.page - 1) * STOCK_PAGE_SIZE);
  return { rows: rows.slice(0, STOCK_PAGE_SIZE), hasMore: rows.length > STOCK_PAGE_SIZE };
}

/** The tracked products with LOW_STOCK_THRESHOLD or fewer available, out of stock first, and how many there are in all. */
export async function lowStock(db: Pick<Database, "select">, limit = LOW_STOCK_SHOWN): Promise<{ rows: StockRow[]; total: number }> {
  const rows = await rowsQuery(db, isLow)
    .orderBy(asc(sql`${productStock.onHand} - ${productStock.reserved}`), asc(sql`coalesce(${products.title}, ${productStock.productKey})`))
    .limit(limit);
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(productStock)
    .where(isLow);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** A product's counts and its last 50 movements, or null for a key without stock. */
export async function stockDetail(db: Pick<Database, "select">, productKey: string) {
  if (hasControlCharacters(productKey)) return null;
  const [row] = await rowsQuery(db, eq(productStock.productKey, productKey));
  if (!row) return null;
  return { row, movements: await movementsOf(db, productKey, 50) };
}

/** Every product's stock now, for the import's preview. */
export async function stockNowOf(db: Pick<Database, "select">, keys: readonly string[]): Promise<Map<string, StockNow>> {
  const unique = [...new Set(keys)];
  const found = new Map<string, StockNow>();
  for (let start = 0; start < unique.length; start += 1000) {
    const rows = await db
      .select({
        productKey: productStock.productKey,
        title: columns.title,
        policy: productStock.policy,
        onHand: productStock.onHand,
        reserved: productStock.reserved,
      })
      .from(productStock)
      .leftJoin(products, eq(products.key, productStock.productKey))
      .where(inArray(productStock.productKey, unique.slice(start, start + 1000)));
    for (const { productKey, ...now } of rows) found.set(productKey, now);
  }
  return found;
}

const STOCK_CSV_HEADER = ["product_key", "title", "policy", "on_hand", "held", "available"];

/**
 * Every product's stock as CSV (the header is STOCK_CSV_HEADER), in key order; a made-to-order product has
 * no counts. Edited in a spreadsheet, it is a file the import reads (its title, policy, held and available are ignored).
 */
export async function stockCsv(db: Pick<Database, "select">): Promise<string> {
  const rows = await rowsQuery(db, undefined).orderBy(asc(productStock.productKey));
  const lines = rows.map((row) =>
    row.policy === "tracked"
      ? csvLine([row.productKey, row.title, row.policy, row.onHand, row.reserved, row.available])
      : csvLine([row.productKey, row.title, row.policy, "", "", ""]),
  );
  return csvDocument([csvLine(STOCK_CSV_HEADER), ...lines]);
}

/** The form came without the count its page showed: not one of our pages, or a very old one. */
export const SET_COUNT_OUT_OF_DATE = "This form is out of date. Please open the product's stock page again.";

/** What the "Set on hand" form posts. `expectedOnHand` is the count the page showed. */
export const setCountForm = z.object({
  onHand: z
    .string()
    .max(40)
    .transform((value, context) => {
      const count = parseCount(value);
      if (count.ok) return count.value;
      context.addIssue({ code: "custom", message: `On hand: ${count.message}` });
      return z.NEVER;
    }),
  reason: z
    .string()
    .max(2000)
    .transform((value, context) => {
      const reason = parseReason(value);
      if (!reason.ok) context.addIssue({ code: "custom", message: reason.message });
      else if (!reason.value)
        context.addIssue({ code: "custom", message: "Say why the count changes (a count, damage found, a delivery)." });
      return reason.ok ? reason.value : z.NEVER;
    }),
  expectedOnHand: z
    .string({ error: SET_COUNT_OUT_OF_DATE })
    .regex(/^\d{1,7}$/, SET_COUNT_OUT_OF_DATE)
    .transform(Number),
});

/** The HTTP status of each refusal of setOnHand. */
export const SET_COUNT_STATUS = { "not-found": 404, "made-to-order": 409, held: 409, stale: 409 } as const;

/**
 * "Set on hand" from the desk: setOnHand (locked, never below what is held, refused when the count is no
 * longer the one the page showed), then, once committed, the "Notify me" emails of a product back in stock.
 */
export async function setCountFromDesk(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  input: { productKey: string; onHand: number; reason: string; actor: string; expectedOnHand: number },
): Promise<SetOnHandResult> {
  const result = await setOnHand(db, input);
  if (result.ok && result.backInStock) await queueBackInStock(jobs, [input.productKey]);
  return result;
}
