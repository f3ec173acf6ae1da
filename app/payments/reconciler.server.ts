import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { paymentAttempts } from "~/db/schema";
import { enqueue } from "~/jobs/queue.server";
import { markAttemptAbandoned, type PaymentAttempt } from "./attempts.server";
import { reconfirmAttempt } from "./confirm-payment.server";
import { storeLog } from "~/http/logger.server";

/**
 * The reconciler: every attempt still `started` is asked about again, from
 * the provider, on a schedule kept in the attempt's own row (`next_check_at`,
 * first a few minutes after it started, see FIRST_CHECK_DELAY_MS, then with a
 * growing delay), through the same confirmation as the return page and the
 * webhooks, so a payment whose shopper never came back becomes exactly one
 * order and its email is sent. Past the deadline an attempt the provider
 * still has no payment for is marked abandoned. Each check is a
 * `payment.reconcile` job on the store's job queue (app/jobs), set for the
 * attempt's `next_check_at` when it starts and each time it is put off; the
 * row stays the record, and is claimed like the email queue's (`for update
 * skip locked` and a lease on `next_check_at`), so a job that runs twice or
 * early asks nothing twice.
 */
export interface ReconcilePolicy {
  /** How long a claimed attempt is left alone by other processes while it is asked about. */
  leaseMs: number;
  /** The wait after the n-th check (n from 1). */
  backoffMs: (check: number) => number;
  /** How long after it started an attempt is given up when the provider still has no payment. */
  deadlineMs: number;
}

const MINUTE = 60_000;

/** 10, 20, 40 minutes... up to every 6 hours, for 3 days (PayPal holds approved orders 3 days; Stripe sessions expire in 1). */
export const DEFAULT_RECONCILE_POLICY: ReconcilePolicy = {
  leaseMs: 5 * MINUTE,
  backoffMs: (check) => Math.min(10 * MINUTE * 2 ** Math.max(0, check - 1), 360 * MINUTE),
  deadlineMs: 3 * 24 * 60 * MINUTE,
};

export const ABANDONED_MESSAGE = "No payment arrived before the deadline.";

export interface ReconcileReport {
  claimed: number;
  paid: number;
  declined: number;
  abandoned: number;
  /** Still undecided: asked again later. */
  rescheduled: number;
}

/**
 * The `payment.reconcile` job: asks about the attempt if its check is due.
 * One that is not due (another process is asking, or it was put off) is
 * looked at again at its time.
 */
export async function reconcileAttempt(db: Database, config: Config, id: string): Promise<void> {
  const { claimed } = await reconcileDueAttempts(db, config, { ids: [id] });
  if (claimed > 0) return;
  const [attempt] = await db
    .select({ status: paymentAttempts.status, nextCheckAt: paymentAttempts.nextCheckAt })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, id));
  if (attempt?.status === "started" && attempt.nextCheckAt) await enqueue("payment.reconcile", { id }, { startAfter: attempt.nextCheckAt });
}

/** Schedules every unfinished attempt's next check: what a process does at start, for attempts whose job was lost. */
export async function scheduleUnfinishedAttempts(db: Database): Promise<number> {
  const unfinished = await db
    .select({ id: paymentAttempts.id, nextCheckAt: paymentAttempts.nextCheckAt })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.status, "started"), isNotNull(paymentAttempts.nextCheckAt)));
  for (const { id, nextCheckAt } of unfinished) await enqueue("payment.reconcile", { id }, { startAfter: nextCheckAt ?? undefined });
  return unfinished.length;
}

export async function reconcileDueAttempts(
  db: Database,
  config: Config,
  {
    now = new Date(),
    limit = 20,
    policy = DEFAULT_RECONCILE_POLICY,
    logger = storeLog,
    ids,
  }: { now?: Date; limit?: number; policy?: ReconcilePolicy; logger?: Pick<Console, "error">; ids?: string[] } = {},
): Promise<ReconcileReport> {
  const due = db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(eq(paymentAttempts.status, "started"), lte(paymentAttempts.nextCheckAt, now), ids ? inArray(paymentAttempts.id, ids) : undefined),
    )
    .orderBy(asc(paymentAttempts.nextCheckAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(paymentAttempts)
    .set({ checks: sql`${paymentAttempts.checks} + 1`, nextCheckAt: new Date(now.getTime() + policy.leaseMs) })
    .where(and(inArray(paymentAttempts.id, due), eq(paymentAttempts.status, "started")))
    .returning();

  // Looked at again when the lease runs out, should this process die or the provider's answer fail.
  for (const attempt of claimed) await enqueue("payment.reconcile", { id: attempt.id }, { startAfter: attempt.nextCheckAt ?? undefined });

  const report: ReconcileReport = { claimed: claimed.length, paid: 0, declined: 0, abandoned: 0, rescheduled: 0 };
  for (const attempt of claimed) {
    try {
      report[await reconcileOne(db, config, attempt, now, policy)] += 1;
    } catch (error) {
      // Its job at the end of the lease tries again.
      logger.error(`Payment attempt ${attempt.id} could not be reconciled: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return report;
}

async function reconcileOne(
  db: Database,
  config: Config,
  attempt: PaymentAttempt,
  now: Date,
  policy: ReconcilePolicy,
): Promise<"paid" | "declined" | "abandoned" | "rescheduled"> {
  const outcome = await reconfirmAttempt(db, config, attempt);
  if (outcome.status === "paid" || outcome.status === "declined") return outcome.status;
  if (now.getTime() - attempt.createdAt.getTime() >= policy.deadlineMs) {
    await markAttemptAbandoned(db, attempt.id, ABANDONED_MESSAGE);
    return "abandoned";
  }
  const nextCheckAt = new Date(now.getTime() + policy.backoffMs(attempt.checks));
  await db
    .update(paymentAttempts)
    .set({ nextCheckAt })
    .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, "started")));
  await enqueue("payment.reconcile", { id: attempt.id }, { startAfter: nextCheckAt });
  return "rescheduled";
}
