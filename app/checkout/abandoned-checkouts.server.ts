import { and, eq, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { dueRowsLocked } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { checkouts, orders, paymentAttempts, promoReservations, testPayments } from "~/db/schema";
import { log } from "~/observability/logger.server";
import type { JobSender } from "~/jobs/queue.server";
import type { ServiceDeps } from "~/store-runtime";

/**
 * Every Proceed to Payment records a pending checkout, and most are never paid (issue 40: one client
 * added 200 in a second). A checkout is abandoned once it is this old (as long as the details cookie
 * that points at it lives) and nothing refers to it: no payment attempt in any state (an attempt, its
 * refunds and audit trail stay with their checkout), no order, no test payment, no LOVERUB10 reservation.
 */
export const ABANDONED_CHECKOUT_AGE_MS = 30 * 24 * 60 * 60_000;
/** How often the clean-up runs; runs are set on the hour, so every process queues the same one. */
export const CLEANUP_EVERY_MS = 60 * 60_000;
/** Rows deleted per statement: short statements, few locks at a time. */
const BATCH_SIZE = 500;
/** Batches per run at most; what is left waits for the next run. */
const MAX_BATCHES = 200;

/** Queues the next run, on the next hour (one waiting job, however many processes ask). */
export async function scheduleCheckoutCleanup(jobs: JobSender, now = new Date()): Promise<void> {
  const nextRun = (Math.floor(now.getTime() / CLEANUP_EVERY_MS) + 1) * CLEANUP_EVERY_MS;
  await jobs.send("checkout.cleanup", {}, { startAfter: new Date(nextRun) });
}

/** The job: queues the next run first, so a run that fails never ends the chain, then deletes. */
export async function cleanUpAbandonedCheckouts({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">, now = new Date()): Promise<number> {
  await scheduleCheckoutCleanup(jobs, now);
  const deleted = await deleteAbandonedCheckouts(db, { now });
  if (deleted > 0) log("info", "Abandoned checkouts deleted", { deleted });
  return deleted;
}

/** Deletes abandoned checkouts a batch at a time, until a batch comes back short; says how many. */
export async function deleteAbandonedCheckouts(
  db: Database,
  { now = new Date(), batchSize = BATCH_SIZE, maxBatches = MAX_BATCHES }: { now?: Date; batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - ABANDONED_CHECKOUT_AGE_MS);
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await deleteBatch(db, cutoff, batchSize);
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}

/** No row of the column's table names the checkout. */
function unreferencedBy(column: AnyPgColumn) {
  return sql`not exists (select 1 from ${column.table} where ${column} = ${checkouts.token})`;
}

async function deleteBatch(db: Database, cutoff: Date, limit: number): Promise<number> {
  const abandoned = dueRowsLocked(db, checkouts.token, {
    dueAt: checkouts.createdAt,
    asOf: cutoff,
    where: and(
      eq(checkouts.status, "pending"),
      isNull(checkouts.orderId),
      unreferencedBy(paymentAttempts.checkoutToken),
      unreferencedBy(orders.checkoutToken),
      unreferencedBy(testPayments.checkoutToken),
      unreferencedBy(promoReservations.checkoutToken),
    ),
    limit,
  });
  const rows = await db.delete(checkouts).where(abandoned).returning({ token: checkouts.token });
  return rows.length;
}
