import { createHash } from "node:crypto";
import { and, arrayContains, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import { catalogImports, products } from "~/db/schema";
import type { StaffUser } from "~/staff/staff-user";
import { formatDateTimeUtc } from "~/utils/format";
import { forgetCatalogCaches } from "../queries.server";
import { catalogCsvDocument, decodeCatalogFile, parseCatalogFile, planCatalogImport } from "./catalog-csv";
import { ChangeRefused, changeProductsIn, deskRowsOf } from "./catalog-desk.server";
import { deskValueFromText, type DeskField, type DeskValues } from "./desk-values";

/**
 * The catalogue desk's CSV round trip: the export of one brand's, one category's or every product's prices
 * and flags, and the import: an uploaded file becomes a preview (`catalog_imports`: each product's changes,
 * field by field, with the product's version, and every row's error), which an owner applies once, all or
 * nothing, through the desk's own `changeProductsIn` (its rules, its audit rows with `import:{id}`, its
 * announcement to every process), only without errors and only while no product changed since the preview.
 */

/** The export's filter: empty is every brand, every category. */
export interface CatalogCsvFilter {
  brand: string;
  category: string;
}

/** The products the filter selects, in catalogue order, as the CSV (catalog-csv.ts). */
export async function catalogCsv(db: Pick<Database, "select">, filter: CatalogCsvFilter): Promise<string> {
  const rows = await db
    .select({
      key: products.key,
      brand: products.brand,
      model: products.model,
      title: products.title,
      priceCents: products.priceCents,
      compareAtCents: products.compareAtCents,
      salePriceCents: products.salePriceCents,
      saleStartsAt: products.saleStartsAt,
      saleEndsAt: products.saleEndsAt,
      published: products.published,
      nonReturnable: products.nonReturnable,
      customMade: products.customMade,
      madeToOrder: products.madeToOrder,
    })
    .from(products)
    .where(
      and(
        filter.brand ? eq(products.brand, filter.brand) : undefined,
        filter.category ? arrayContains(products.categories, [filter.category]) : undefined,
      ),
    )
    .orderBy(asc(products.position));
  return catalogCsvDocument(rows);
}

export const CATALOG_IMPORT_MESSAGES = {
  notFound: "There is no such import. Upload the file again.",
  hasErrors: "This preview has errors, so nothing can be applied. Correct the rows named below and upload the file again.",
  nothingToApply: "Every value in this file is already the product's: there is nothing to apply.",
} as const;

export type PreviewOutcome = { ok: true; id: string } | { ok: false; message: string };

/**
 * Reads the file and saves its preview. A file that is no CSV, not UTF-8, without the header or with too
 * many rows saves nothing and says why.
 */
export async function createCatalogImportPreview(
  db: Database,
  input: { staff: StaffUser; fileName: string; bytes: Uint8Array },
): Promise<PreviewOutcome> {
  const text = decodeCatalogFile(input.bytes);
  if (!text.ok) return text;
  const file = parseCatalogFile(text.value);
  if (!file.ok) return file;
  const now = await deskRowsOf(
    db,
    file.value.rows.map((row) => row.productKey),
  );
  const plan = planCatalogImport(file.value, now);
  const [saved] = await db
    .insert(catalogImports)
    .values({
      staffId: input.staff.id,
      staffEmail: input.staff.email,
      fileName: input.fileName,
      digest: createHash("sha256").update(input.bytes).digest("hex"),
      rows: plan.rows,
      errors: plan.errors,
    })
    .returning({ id: catalogImports.id });
  return { ok: true, id: saved!.id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CatalogImport = typeof catalogImports.$inferSelect;

/** An import's preview, or null for an id that names none. */
export async function catalogImportPreview(db: Pick<Database, "select">, id: string): Promise<CatalogImport | null> {
  if (!UUID.test(id)) return null;
  const [found] = await db.select().from(catalogImports).where(eq(catalogImports.id, id));
  return found ?? null;
}

/** The last imports, newest first, for the upload page. */
export async function recentCatalogImports(db: Pick<Database, "select">, limit = 10) {
  return db
    .select({
      id: catalogImports.id,
      fileName: catalogImports.fileName,
      staffEmail: catalogImports.staffEmail,
      createdAt: catalogImports.createdAt,
      appliedAt: catalogImports.appliedAt,
      rows: sql<number>`jsonb_array_length(${catalogImports.rows})`.mapWith(Number),
      errors: sql<number>`jsonb_array_length(${catalogImports.errors})`.mapWith(Number),
    })
    .from(catalogImports)
    .orderBy(desc(catalogImports.createdAt), desc(catalogImports.id))
    .limit(limit);
}

/** What the preview's Apply button posts (besides its CSRF token). */
export const applyCatalogImportForm = z.object({ intent: z.literal("apply") });

export type ApplyOutcome =
  | { ok: true; changed: number; message: string }
  | { ok: false; reason: "not-found" | "applied" | "has-errors" | "nothing" | "stale"; status: number; message: string };

type Refusal = Extract<ApplyOutcome, { ok: false }>;

/** Thrown inside the transaction to roll the claim back with everything else. */
class ImportRefused extends Error {
  constructor(readonly outcome: Refusal) {
    super(outcome.message);
  }
}

/**
 * Applies a preview, all or nothing, once, in one transaction: claim the import (`applied_at`, so a double
 * submit or a second process finds it applied), then every product's changes through changeProductsIn, which
 * locks each product and refuses (rolled back, claim included) one whose version is no longer the preview's.
 * Committed, this process forgets its catalogue memos; the others hear of it by NOTIFY.
 */
export async function applyCatalogImport(db: Database, input: { id: string; actor: string }): Promise<ApplyOutcome> {
  if (!UUID.test(input.id)) return { ok: false, reason: "not-found", status: 404, message: CATALOG_IMPORT_MESSAGES.notFound };
  let outcome: ApplyOutcome;
  try {
    outcome = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(catalogImports)
        .set({ appliedAt: sql`now()`, appliedBy: input.actor })
        .where(and(eq(catalogImports.id, input.id), isNull(catalogImports.appliedAt)))
        .returning();
      if (!claimed) {
        const [seen] = await tx
          .select({ appliedAt: catalogImports.appliedAt, appliedBy: catalogImports.appliedBy })
          .from(catalogImports)
          .where(eq(catalogImports.id, input.id));
        if (!seen?.appliedAt) return { ok: false, reason: "not-found", status: 404, message: CATALOG_IMPORT_MESSAGES.notFound } as const;
        return { ok: false, reason: "applied", status: 409, message: alreadyApplied(seen.appliedAt, seen.appliedBy) } as const;
      }
      const refuse = (reason: Refusal["reason"], message: string): never => {
        throw new ImportRefused({ ok: false, reason, status: 409, message });
      };
      if (claimed.errors.length > 0) refuse("has-errors", CATALOG_IMPORT_MESSAGES.hasErrors);
      const changed = claimed.rows.filter((row) => row.changes.length > 0);
      if (changed.length === 0) refuse("nothing", CATALOG_IMPORT_MESSAGES.nothingToApply);
      const rowOf = new Map(changed.map((row) => [row.productKey, row.row]));
      try {
        await changeProductsIn(tx, {
          staffEmail: input.actor,
          source: `import:${claimed.id}`,
          products: changed.map((row) => ({
            productKey: row.productKey,
            expectedVersion: row.deskVersion,
            values: Object.fromEntries(
              row.changes.map((change) => [change.field, deskValueFromText(change.field as DeskField, change.after)]),
            ) as Partial<DeskValues>,
          })),
        });
      } catch (error) {
        if (!(error instanceof ChangeRefused)) throw error;
        const { productKey, reason, message } = error.refusal;
        const why = reason === "stale" ? "was changed since this preview was made" : reason === "not-found" ? "no longer exists" : message;
        refuse(
          "stale",
          `Nothing was changed: row ${rowOf.get(productKey) ?? "?"} (${productKey}) ${why}. Upload the file again for a new preview.`,
        );
      }
      return {
        ok: true,
        changed: changed.length,
        message: `Applied: ${changed.length === 1 ? "1 product" : `${changed.length.toLocaleString("en-US")} products`} changed from ${claimed.fileName}, each change in its product's history.`,
      } as const;
    });
  } catch (error) {
    if (error instanceof ImportRefused) return error.outcome;
    throw error;
  }
  if (outcome.ok) forgetCatalogCaches(db);
  return outcome;
}

function alreadyApplied(appliedAt: Date, appliedBy: string | null): string {
  return `This import was already applied on ${formatDateTimeUtc(appliedAt)}${appliedBy ? ` by ${appliedBy}` : ""}: nothing was changed again.`;
}
