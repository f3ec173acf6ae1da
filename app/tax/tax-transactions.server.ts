import { and, asc, count, eq, inArray, min, sql } from "drizzle-orm";
import { dueRowsLocked, leaseUntil } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { orders, taxTransactions, type TaxTransactionLine } from "~/db/schema";
import type { JobSender } from "~/jobs/queue.server";
import type { ServiceDeps } from "~/store-runtime";
import { logError, storeLog } from "~/observability/logger.server";
import { createOfflineTaxService } from "~/services/tax/offline-tax.server";
import { TaxError, type TaxService } from "~/services/tax/types";
import { mapWithLimit } from "~/utils/promise-pool";

/**
 * An order's sales tax at the provider, after the sale (issue 48). The order's commit is written in the
 * transaction that records the order, each reversal in the one that records its refund: a row per cause
 * (`source`, unique), so a refund posted twice, or on two processes, is one reversal. The `tax.record`
 * sweep then sends each row to the provider once, under the row's id as idempotency key and the row's
 * reference (the Order ID for a commit), retrying with a growing delay; a row that keeps failing is
 * `failed`, listed for staff, who may send it again.
 */

type Executor = Pick<Database, "select" | "insert">;
export type TaxTransaction = typeof taxTransactions.$inferSelect;
type Order = typeof orders.$inferSelect;

/** Tries before a row is left to staff: about 6 hours of retries. */
export const MAX_TAX_ATTEMPTS = 6;
/** 1, 4, 16, 64 minutes, then every 4 hours. */
const backoffSeconds = (attempts: number) => Math.min(60 * 4 ** Math.max(0, attempts - 1), 4 * 3600);
/** How long a process holds a claimed row while it asks the provider. */
const LEASE_SECONDS = 120;
const BATCH_SIZE = 25;
const CONCURRENCY = 4;

/** The commit of a newly recorded order's tax, in the order's own transaction; nothing for an order priced before tax. */
export async function recordOrderTaxCommit(tx: Executor, order: Order): Promise<void> {
  const { tax } = order;
  if (!tax) return;
  const lines: TaxTransactionLine[] = tax.lines.map((line, lineIndex) => ({
    lineIndex,
    reference: line.reference,
    quantity: order.items[lineIndex]?.quantity ?? 0,
    amountCents: line.amountCents,
    taxCents: line.taxCents,
  }));
  await tx
    .insert(taxTransactions)
    .values({
      orderId: order.orderId,
      kind: "commit",
      source: `order:${order.orderId}`,
      reference: order.orderId,
      provider: tax.provider,
      state: tax.state,
      taxCents: tax.amountCents,
      amountCents: sum(lines, "amountCents") + tax.shippingCents,
      lines,
      shippingCents: tax.shippingCents,
      shippingTaxCents: tax.shippingTaxCents,
    })
    .onConflictDoNothing();
}

/** What the order's earlier reversals gave back, per line and of shipping. */
interface Reversed {
  lines: Map<number, { quantity: number; amountCents: number; taxCents: number }>;
  shippingCents: number;
  shippingTaxCents: number;
  full: boolean;
}

async function commitAndReversals(tx: Executor, orderId: string): Promise<{ commit: TaxTransaction | null; reversed: Reversed }> {
  const rows = await tx.select().from(taxTransactions).where(eq(taxTransactions.orderId, orderId)).orderBy(asc(taxTransactions.createdAt));
  const reversed: Reversed = { lines: new Map(), shippingCents: 0, shippingTaxCents: 0, full: false };
  for (const row of rows) {
    if (row.kind !== "reversal") continue;
    reversed.full ||= row.mode === "full";
    reversed.shippingCents += row.shippingCents;
    reversed.shippingTaxCents += row.shippingTaxCents;
    for (const line of row.lines) {
      const earlier = reversed.lines.get(line.lineIndex) ?? { quantity: 0, amountCents: 0, taxCents: 0 };
      reversed.lines.set(line.lineIndex, {
        quantity: earlier.quantity + line.quantity,
        amountCents: earlier.amountCents + line.amountCents,
        taxCents: earlier.taxCents + line.taxCents,
      });
    }
  }
  return { commit: rows.find((row) => row.kind === "commit") ?? null, reversed };
}

/**
 * The whole order's tax given back (its payment refunded, or a test order cancelled), written with the
 * refund: the whole transaction when nothing was reversed before, else what earlier partial reversals
 * left, as one more partial reversal. Nothing when the order has no tax record or nothing is left.
 */
export async function recordFullTaxReversal(tx: Executor, input: { orderId: string; source: string; reference: string }): Promise<boolean> {
  const { commit, reversed } = await commitAndReversals(tx, input.orderId);
  if (!commit || reversed.full) return false;
  const lines = commit.lines
    .map((line) => {
      const earlier = reversed.lines.get(line.lineIndex);
      return {
        ...line,
        quantity: Math.max(0, line.quantity - (earlier?.quantity ?? 0)),
        amountCents: Math.max(0, line.amountCents - (earlier?.amountCents ?? 0)),
        taxCents: Math.max(0, line.taxCents - (earlier?.taxCents ?? 0)),
      };
    })
    .filter((line) => line.amountCents > 0 || line.taxCents > 0);
  const shippingCents = Math.max(0, commit.shippingCents - reversed.shippingCents);
  const shippingTaxCents = Math.max(0, commit.shippingTaxCents - reversed.shippingTaxCents);
  const partial = reversed.lines.size > 0 || reversed.shippingCents > 0;
  if (partial && lines.length === 0 && shippingCents === 0 && shippingTaxCents === 0) return false;
  return insertReversal(tx, commit, {
    ...input,
    mode: partial ? "partial" : "full",
    lines,
    shippingCents,
    shippingTaxCents,
  });
}

/**
 * The tax of returned lines given back with the return's refund: each line's tax and taxed amount in the
 * proportion of its quantity returned (what earlier reversals left of it at most). The tax is never more
 * than the refund itself. Nothing when the order has no tax record.
 */
export async function recordReturnTaxReversal(
  tx: Executor,
  input: { orderId: string; source: string; reference: string; lines: { lineIndex: number; quantity: number }[]; refundCents: number },
): Promise<boolean> {
  const { commit, reversed } = await commitAndReversals(tx, input.orderId);
  if (!commit || reversed.full) return false;
  let taxLeft = input.refundCents;
  const lines: TaxTransactionLine[] = [];
  for (const returned of input.lines) {
    const line = commit.lines.find((candidate) => candidate.lineIndex === returned.lineIndex);
    if (!line || line.quantity <= 0) continue;
    const earlier = reversed.lines.get(line.lineIndex);
    const quantity = Math.min(returned.quantity, line.quantity - (earlier?.quantity ?? 0));
    if (quantity <= 0) continue;
    const share = returnedTaxShare(line, quantity);
    const taxCents = Math.min(share.taxCents, line.taxCents - (earlier?.taxCents ?? 0), taxLeft);
    taxLeft -= taxCents;
    lines.push({ ...line, quantity, amountCents: Math.min(share.amountCents, line.amountCents - (earlier?.amountCents ?? 0)), taxCents });
  }
  if (lines.length === 0) return false;
  return insertReversal(tx, commit, { ...input, mode: "partial", lines, shippingCents: 0, shippingTaxCents: 0 });
}

/** A line's taxed amount and tax in the proportion of `quantity` of it: the returns desk proposes the same figure. */
export function returnedTaxShare(line: { quantity: number; amountCents: number; taxCents: number }, quantity: number) {
  const part = Math.min(quantity, line.quantity);
  return {
    amountCents: Math.round((line.amountCents * part) / line.quantity),
    taxCents: Math.round((line.taxCents * part) / line.quantity),
  };
}

async function insertReversal(
  tx: Executor,
  commit: TaxTransaction,
  reversal: {
    source: string;
    reference: string;
    mode: "full" | "partial";
    lines: TaxTransactionLine[];
    shippingCents: number;
    shippingTaxCents: number;
  },
): Promise<boolean> {
  const inserted = await tx
    .insert(taxTransactions)
    .values({
      orderId: commit.orderId,
      kind: "reversal",
      source: reversal.source,
      reference: reversal.reference,
      mode: reversal.mode,
      provider: commit.provider,
      state: commit.state,
      taxCents: sum(reversal.lines, "taxCents") + reversal.shippingTaxCents,
      amountCents: sum(reversal.lines, "amountCents") + reversal.shippingCents,
      lines: reversal.lines,
      shippingCents: reversal.shippingCents,
      shippingTaxCents: reversal.shippingTaxCents,
    })
    .onConflictDoNothing()
    .returning({ id: taxTransactions.id });
  return inserted.length > 0;
}

/** Whether a test-page order's cancellation gave its tax back (such an order then stays Cancelled). */
export async function taxReversedByCancel(tx: Pick<Database, "select">, orderId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: taxTransactions.id })
    .from(taxTransactions)
    .where(eq(taxTransactions.source, `cancel:${orderId}`))
    .limit(1);
  return rows.length > 0;
}

/** Queues the sweep that sends due rows to the provider; called after the transaction that wrote one commits. */
export async function queueTaxRecording(jobs: JobSender): Promise<void> {
  await jobs.send("tax.record", {}).catch((error: unknown) => {
    logError("The tax recording sweep could not be queued (the next start queues it)", error);
  });
}

/** What a process does at start: one sweep now, for rows whose job was lost. Says how many wait. */
export async function scheduleTaxRecording({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">): Promise<number> {
  const [{ waiting }] = await db.select({ waiting: count() }).from(taxTransactions).where(eq(taxTransactions.status, "pending"));
  await jobs.send("tax.record", {});
  return waiting;
}

export interface TaxSweepReport {
  claimed: number;
  recorded: number;
  retrying: number;
  failed: number;
}

/**
 * The `tax.record` job: claims the due rows a batch at a time (`for update skip locked` and a lease on
 * `next_attempt_at`), sends each to the provider, and queues the next sweep for the earliest row still
 * waiting. A reversal waits for its order's commit.
 */
export async function sweepTaxTransactions(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  taxService: TaxService,
  { logger = storeLog }: { logger?: Pick<Console, "error"> } = {},
): Promise<TaxSweepReport> {
  const report: TaxSweepReport = { claimed: 0, recorded: 0, retrying: 0, failed: 0 };
  for (;;) {
    const claimed = await claimDueRows(db);
    report.claimed += claimed.length;
    // Commits first: a reversal claimed with its order's commit then finds it recorded.
    for (const kind of ["commit", "reversal"] as const) {
      await mapWithLimit(
        claimed.filter((row) => row.kind === kind),
        CONCURRENCY,
        async (row) => {
          report[await recordOne(db, taxService, row, logger)] += 1;
        },
      );
    }
    if (claimed.length < BATCH_SIZE) break;
  }
  const [{ earliest }] = await db
    .select({ earliest: min(taxTransactions.nextAttemptAt) })
    .from(taxTransactions)
    .where(eq(taxTransactions.status, "pending"));
  if (earliest) await jobs.send("tax.record", {}, { startAfter: earliest });
  return report;
}

async function claimDueRows(db: Database): Promise<TaxTransaction[]> {
  const due = dueRowsLocked(db, taxTransactions.id, {
    dueAt: taxTransactions.nextAttemptAt,
    where: eq(taxTransactions.status, "pending"),
    limit: BATCH_SIZE,
  });
  return db
    .update(taxTransactions)
    .set({ nextAttemptAt: leaseUntil(LEASE_SECONDS) })
    .where(and(due, eq(taxTransactions.status, "pending")))
    .returning();
}

async function recordOne(
  db: Database,
  taxService: TaxService,
  row: TaxTransaction,
  logger: Pick<Console, "error">,
): Promise<"recorded" | "retrying" | "failed"> {
  const service = serviceFor(row, taxService);
  try {
    if (!service) throw new TaxError(`${row.provider} tax is not configured, so this transaction cannot be recorded there.`, taxService.id);
    const record = row.kind === "commit" ? await commitRow(db, service, row) : await reverseRow(db, service, row);
    if (record === "waiting") {
      await db
        .update(taxTransactions)
        .set({ nextAttemptAt: sql`now() + make_interval(secs => 30)` })
        .where(and(eq(taxTransactions.id, row.id), eq(taxTransactions.status, "pending")));
      return "retrying";
    }
    await db
      .update(taxTransactions)
      .set({
        status: "recorded",
        providerTransactionId: record.transactionId,
        providerLineItems: row.kind === "commit" ? record.lineItemIds : null,
        recordedAt: sql`now()`,
        lastError: null,
        attempts: sql`${taxTransactions.attempts} + 1`,
      })
      .where(and(eq(taxTransactions.id, row.id), eq(taxTransactions.status, "pending")));
    return "recorded";
  } catch (error) {
    if (!(error instanceof TaxError)) throw error;
    const attempts = row.attempts + 1;
    const failed = attempts >= MAX_TAX_ATTEMPTS;
    logger.error(`Tax ${row.kind} ${row.reference} (order ${row.orderId}) not recorded, try ${attempts}: ${error.message}`);
    await db
      .update(taxTransactions)
      .set({
        attempts,
        lastError: error.message.slice(0, 1000),
        status: failed ? "failed" : "pending",
        nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(attempts)})`,
      })
      .where(and(eq(taxTransactions.id, row.id), eq(taxTransactions.status, "pending")));
    return failed ? "failed" : "retrying";
  }
}

/** The service that holds this row's transaction: the runtime's, or the offline table for rows it calculated (no outside call). */
function serviceFor(row: TaxTransaction, taxService: TaxService): TaxService | null {
  if (row.provider === taxService.id) return taxService;
  return row.provider === "offline" ? createOfflineTaxService({ registeredStates: [] }) : null;
}

async function commitRow(db: Database, service: TaxService, row: TaxTransaction) {
  const [order] = await db.select({ tax: orders.tax }).from(orders).where(eq(orders.orderId, row.orderId));
  const calculationId = order?.tax?.calculationId;
  if (!calculationId) throw new TaxError(`Order ${row.orderId} has no tax calculation to record.`, service.id);
  return service.commit({ calculationId, reference: row.reference, idempotencyKey: `tax-${row.id}` });
}

async function reverseRow(db: Database, service: TaxService, row: TaxTransaction) {
  const [commit] = await db
    .select()
    .from(taxTransactions)
    .where(and(eq(taxTransactions.orderId, row.orderId), eq(taxTransactions.kind, "commit")));
  if (!commit?.providerTransactionId || commit.status !== "recorded") return "waiting" as const;
  const lineIds = commit.providerLineItems ?? {};
  return service.reverse({
    originalTransactionId: commit.providerTransactionId,
    reference: row.reference,
    idempotencyKey: `tax-${row.id}`,
    mode: row.mode ?? "partial",
    ...(row.mode === "full"
      ? {}
      : {
          lines: row.lines.map((line) => ({
            originalLineItemId: lineIds[line.reference] ?? line.reference,
            reference: `${line.reference}-${row.id.slice(0, 8)}`.slice(0, 500),
            amountCents: line.amountCents,
            taxCents: line.taxCents,
            quantity: line.quantity,
          })),
          ...(row.shippingCents > 0 || row.shippingTaxCents > 0
            ? { shipping: { amountCents: row.shippingCents, taxCents: row.shippingTaxCents } }
            : {}),
        }),
  });
}

/** An order's commit and reversals, oldest first (the staff panel). */
export async function taxTransactionsOf(db: Database, orderId: string): Promise<TaxTransaction[]> {
  return db.select().from(taxTransactions).where(eq(taxTransactions.orderId, orderId)).orderBy(asc(taxTransactions.createdAt));
}

/** Rows staff must look at: those that ran out of retries. */
export async function failedTaxTransactions(db: Database, limit = 50): Promise<TaxTransaction[]> {
  return db.select().from(taxTransactions).where(eq(taxTransactions.status, "failed")).orderBy(asc(taxTransactions.createdAt)).limit(limit);
}

/** Staff's Retry: a failed row is sent again now, with its retries counted afresh. */
export async function retryTaxTransaction({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return false;
  const retried = await db
    .update(taxTransactions)
    .set({ status: "pending", attempts: 0, nextAttemptAt: sql`now()` })
    .where(and(eq(taxTransactions.id, id), inArray(taxTransactions.status, ["failed"])))
    .returning({ id: taxTransactions.id });
  if (retried.length === 0) return false;
  await queueTaxRecording(jobs);
  return true;
}

function sum(lines: readonly TaxTransactionLine[], field: "amountCents" | "taxCents"): number {
  return lines.reduce((total, line) => total + line[field], 0);
}
