import { createHash } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import type { ServiceDeps } from "~/store-runtime";
import { productStock, stockImports, stockMovements, type StockImportRow } from "~/db/schema";
import type { StaffUser } from "~/staff/staff-user";
import { formatDateTimeUtc } from "~/utils/format";
import { queueBackInStock } from "./back-in-stock.server";
import { stockNowOf } from "./stock-desk.server";
import { conflictMessage, decodeStockFile, parseStockFile, planStockImport, type ImportConflict } from "./stock-import";

/**
 * The stock desk's CSV import: an uploaded file becomes a preview (`stock_imports`: every row with the count
 * now and the count asked for, and the rows' errors), which staff apply once, as one transaction, only
 * without errors and only while every count is still the one the preview showed. The file's reading and
 * checks are pure (stock-import.ts).
 */

export const IMPORT_MESSAGES = {
  notFound: "There is no such import. Upload the file again.",
  hasErrors: "This preview has errors, so nothing can be applied. Correct the rows named below and upload the file again.",
  nothingToApply: "Every count in this file is already the count now: there is nothing to apply.",
} as const;

export type PreviewOutcome = { ok: true; id: string } | { ok: false; message: string };

/**
 * Reads the file and saves its preview: the rows that read well, each with the count now (`before`), and
 * every row's error. A file that is no CSV, not UTF-8, without the header or with too many rows saves nothing.
 */
export async function createImportPreview(
  db: Database,
  input: { staff: StaffUser; fileName: string; bytes: Uint8Array },
): Promise<PreviewOutcome> {
  const text = decodeStockFile(input.bytes);
  if (!text.ok) return text;
  const file = parseStockFile(text.value);
  if (!file.ok) return file;
  const stock = await stockNowOf(
    db,
    file.value.rows.map((row) => row.productKey),
  );
  const plan = planStockImport(file.value, stock, input.fileName);
  const [saved] = await db
    .insert(stockImports)
    .values({
      staffId: input.staff.id,
      staffEmail: input.staff.email,
      fileName: input.fileName,
      digest: createHash("sha256").update(input.bytes).digest("hex"),
      rows: plan.rows,
      errors: plan.errors,
    })
    .returning({ id: stockImports.id });
  return { ok: true, id: saved!.id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type StockImport = typeof stockImports.$inferSelect;

/** An import's preview, or null for an id that names none. */
export async function importPreview(db: Pick<Database, "select">, id: string): Promise<StockImport | null> {
  if (!UUID.test(id)) return null;
  const [found] = await db.select().from(stockImports).where(eq(stockImports.id, id));
  return found ?? null;
}

/** The last imports, newest first, for the upload page. */
export async function recentImports(db: Pick<Database, "select">, limit = 10) {
  return db
    .select({
      id: stockImports.id,
      fileName: stockImports.fileName,
      staffEmail: stockImports.staffEmail,
      createdAt: stockImports.createdAt,
      appliedAt: stockImports.appliedAt,
      rows: sql<number>`jsonb_array_length(${stockImports.rows})`.mapWith(Number),
      errors: sql<number>`jsonb_array_length(${stockImports.errors})`.mapWith(Number),
    })
    .from(stockImports)
    .orderBy(desc(stockImports.createdAt), desc(stockImports.id))
    .limit(limit);
}

/** What the preview's Apply button posts (besides its CSRF token). */
export const applyImportForm = z.discriminatedUnion("intent", [z.object({ intent: z.literal("apply") })]);

export type ApplyOutcome =
  | { ok: true; changed: number; backInStock: string[]; message: string }
  | { ok: false; reason: "not-found" | "applied" | "has-errors" | "nothing" | "stale"; status: number; message: string };

type Refusal = Extract<ApplyOutcome, { ok: false }>;

/** Thrown inside the transaction to roll the claim back with everything else. */
class ImportRefused extends Error {
  constructor(readonly outcome: Refusal) {
    super(outcome.message);
  }
}

/** Rows written per statement. */
const BATCH = 500;

/**
 * Applies a preview, all or nothing, once. One transaction: claim the import (`applied_at`, so a double
 * submit or a second process finds it applied and changes nothing), lock every product's stock row in key
 * order, and refuse the whole import (rolled back, claim included) when a count is no longer the preview's
 * `before`, a product is no longer counted, or a count would go below what checkouts hold now. Then each
 * count is written with its movement (`import:{id}`, the row's reason, the staff member as actor). Once
 * committed, the "Notify me" emails of the products back in stock are queued.
 */
export async function applyImport(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  input: { id: string; actor: string },
): Promise<ApplyOutcome> {
  if (!UUID.test(input.id)) return { ok: false, reason: "not-found", status: 404, message: IMPORT_MESSAGES.notFound };
  let outcome: ApplyOutcome;
  try {
    outcome = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(stockImports)
        .set({ appliedAt: sql`now()`, appliedBy: input.actor })
        .where(and(eq(stockImports.id, input.id), isNull(stockImports.appliedAt)))
        .returning();
      if (!claimed) {
        const [seen] = await tx
          .select({ appliedAt: stockImports.appliedAt, appliedBy: stockImports.appliedBy })
          .from(stockImports)
          .where(eq(stockImports.id, input.id));
        if (!seen?.appliedAt) return { ok: false, reason: "not-found", status: 404, message: IMPORT_MESSAGES.notFound } as const;
        return { ok: false, reason: "applied", status: 409, message: alreadyApplied(seen.appliedAt, seen.appliedBy) } as const;
      }
      if (claimed.errors.length > 0)
        throw new ImportRefused({ ok: false, reason: "has-errors", status: 409, message: IMPORT_MESSAGES.hasErrors });
      const rows = [...claimed.rows].sort((a, b) => (a.productKey < b.productKey ? -1 : a.productKey > b.productKey ? 1 : 0));
      if (!rows.some((row) => row.after !== row.before)) {
        throw new ImportRefused({ ok: false, reason: "nothing", status: 409, message: IMPORT_MESSAGES.nothingToApply });
      }
      const locked = new Map<string, { policy: string; onHand: number; reserved: number }>();
      for (let start = 0; start < rows.length; start += BATCH) {
        const found = await tx
          .select({
            productKey: productStock.productKey,
            policy: productStock.policy,
            onHand: productStock.onHand,
            reserved: productStock.reserved,
          })
          .from(productStock)
          .where(
            inArray(
              productStock.productKey,
              rows.slice(start, start + BATCH).map((row) => row.productKey),
            ),
          )
          .orderBy(asc(productStock.productKey))
          .for("update");
        for (const { productKey, ...stock } of found) locked.set(productKey, stock);
      }
      const conflicts = conflictsOf(rows, locked);
      if (conflicts.length > 0) {
        throw new ImportRefused({ ok: false, reason: "stale", status: 409, message: conflictMessage(conflicts) });
      }
      const changes = rows.filter((row) => row.after !== row.before);
      for (let start = 0; start < changes.length; start += BATCH) {
        const batch = changes.slice(start, start + BATCH);
        const values = sql.join(
          batch.map((row) => sql`(${row.productKey}::text, ${row.after}::int)`),
          sql`, `,
        );
        await tx.execute(
          sql`update ${productStock} set on_hand = v.on_hand, updated_at = now() from (values ${values}) as v(product_key, on_hand) where ${productStock.productKey} = v.product_key`,
        );
        await tx
          .insert(stockMovements)
          .values(
            batch.map((row) => ({
              productKey: row.productKey,
              delta: row.after - row.before,
              onHandAfter: row.after,
              reason: row.reason,
              actor: input.actor,
              source: `import:${claimed.id}`,
            })),
          )
          .onConflictDoNothing();
      }
      const backInStock = changes.flatMap((row) => {
        const reserved = locked.get(row.productKey)!.reserved;
        return row.before - reserved <= 0 && row.after - reserved > 0 ? [row.productKey] : [];
      });
      return {
        ok: true,
        changed: changes.length,
        backInStock,
        message: `Applied: ${changes.length === 1 ? "1 count" : `${changes.length.toLocaleString("en-US")} counts`} changed from ${claimed.fileName}, each with its movement.`,
      } as const;
    });
  } catch (error) {
    if (error instanceof ImportRefused) return error.outcome;
    throw error;
  }
  if (outcome.ok) await queueBackInStock(jobs, outcome.backInStock);
  return outcome;
}

function alreadyApplied(appliedAt: Date, appliedBy: string | null): string {
  return `This import was already applied on ${formatDateTimeUtc(appliedAt)}${appliedBy ? ` by ${appliedBy}` : ""}: nothing was changed again.`;
}

/** The rows whose product moved since the preview: another count, no longer counted, or below what is held now. */
function conflictsOf(
  rows: readonly StockImportRow[],
  locked: ReadonlyMap<string, { policy: string; onHand: number; reserved: number }>,
): ImportConflict[] {
  const conflicts: ImportConflict[] = [];
  for (const row of rows) {
    const stock = locked.get(row.productKey);
    if (!stock) conflicts.push({ row: row.row, productKey: row.productKey, message: "no longer has stock" });
    else if (stock.policy !== "tracked") conflicts.push({ row: row.row, productKey: row.productKey, message: "is made to order now" });
    else if (stock.onHand !== row.before) {
      conflicts.push({ row: row.row, productKey: row.productKey, message: `${stock.onHand} on hand now, ${row.before} in the preview` });
    } else if (row.after < stock.reserved) {
      conflicts.push({ row: row.row, productKey: row.productKey, message: `${stock.reserved} are held by checkouts paying now` });
    }
  }
  return conflicts.sort((a, b) => a.row - b.row);
}
