import type { ServiceDeps } from "~/store-runtime";
import { and, count, eq, inArray, isNotNull, min, sql } from "drizzle-orm";
import { dueRowsLocked } from "~/db/claims.server";
import { paymentAttempts } from "~/db/schema";
import { markAttemptAbandoned, type PaymentAttempt } from "./attempts.server";
import { reconfirmAttempt } from "./confirm-payment.server";
import { storeLog } from "~/observability/logger.server";
import { mapWithLimit } from "~/utils/promise-pool";

/**
 * The reconciler: every attempt still `started` is asked about again, from
 * the provider, on a schedule kept in the attempt's own row (`next_check_at`,
 * first a few minutes after it started, see FIRST_CHECK_DELAY_MS, then with a
 * growing delay), through the same confirmation as the return page and the
 * webhooks, so a payment whose shopper never came back becomes exactly one
 * order and its email is sent. Past the deadline an attempt the provider
 * still has no payment for is marked abandoned.
 *
 * The checks run as sweeps, `payment.reconcile` jobs on the store's job queue
 * (app/jobs) that name no attempt: a sweep claims the due attempts in batches
 * (`for update skip locked` and a lease on `next_check_at`, like the email
 * queue's rows), asks a few providers at a time, and ends by queueing the
 * next sweep for the earliest `next_check_at` still ahead, which covers the
 * attempts it put off and those whose check threw (left with their lease).
 * A new attempt queues the sweep of its first check; sweeps due in the same
 * 10 seconds are one job, so a busy store does not queue a job per payment.
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

/** Attempts claimed at a time, and providers asked at once. */
const BATCH_SIZE = 25;
const CONCURRENCY = 5;

/** A sweep stops claiming after this long and queues another, well within the job queue's 5-minute expiry. */
const SWEEP_BUDGET_MS = 60_000;

export const ABANDONED_MESSAGE = "No payment arrived before the deadline.";

export interface ReconcileReport {
  claimed: number;
  paid: number;
  declined: number;
  abandoned: number;
  /** Still undecided: asked again later. */
  rescheduled: number;
}

export interface SweepOptions {
  /** Attempts claimed at a time (BATCH_SIZE). */
  batchSize?: number;
  /** Providers asked at once (CONCURRENCY). */
  concurrency?: number;
  /** How long it claims before leaving the rest to another sweep (SWEEP_BUDGET_MS). */
  budgetMs?: number;
  policy?: ReconcilePolicy;
  logger?: Pick<Console, "error">;
}

/**
 * The `payment.reconcile` job: asks about every attempt that is due, a batch
 * at a time, until a batch comes back short, then queues the next sweep for
 * the earliest check still ahead. Out of time with more due, it queues
 * another sweep at once instead.
 */
export async function sweepDueAttempts(
  deps: ServiceDeps,
  { batchSize = BATCH_SIZE, concurrency = CONCURRENCY, budgetMs = SWEEP_BUDGET_MS, policy, logger }: SweepOptions = {},
): Promise<ReconcileReport> {
  const { db } = deps;
  const started = Date.now();
  const report: ReconcileReport = { claimed: 0, paid: 0, declined: 0, abandoned: 0, rescheduled: 0 };
  for (;;) {
    const batch = await reconcileDueAttempts(deps, { limit: batchSize, concurrency, policy, logger });
    for (const key of Object.keys(report) as (keyof ReconcileReport)[]) report[key] += batch[key];
    if (batch.claimed < batchSize) break;
    if (Date.now() - started >= budgetMs) {
      await deps.jobs.send("payment.reconcile", {});
      return report;
    }
  }
  const [{ earliest }] = await db
    .select({ earliest: min(paymentAttempts.nextCheckAt) })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.status, "started"));
  if (earliest) await deps.jobs.send("payment.reconcile", {}, { startAfter: earliest });
  return report;
}

/** What a process does at start: one sweep now, for the checks whose job was lost. Says how many attempts are unfinished. */
export async function scheduleUnfinishedAttempts({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">): Promise<number> {
  const [{ unfinished }] = await db
    .select({ unfinished: count() })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.status, "started"), isNotNull(paymentAttempts.nextCheckAt)));
  await jobs.send("payment.reconcile", {});
  return unfinished;
}

/** Claims up to `limit` due attempts (of `ids` when given) and asks about them, `concurrency` at a time. */
export async function reconcileDueAttempts(
  deps: ServiceDeps,
  {
    now = new Date(),
    limit = 20,
    concurrency = CONCURRENCY,
    policy = DEFAULT_RECONCILE_POLICY,
    logger = storeLog,
    ids,
  }: { now?: Date; limit?: number; concurrency?: number; policy?: ReconcilePolicy; logger?: Pick<Console, "error">; ids?: string[] } = {},
): Promise<ReconcileReport> {
  const { db } = deps;
  const due = dueRowsLocked(db, paymentAttempts.id, {
    dueAt: paymentAttempts.nextCheckAt,
    asOf: now,
    where: and(eq(paymentAttempts.status, "started"), ids ? inArray(paymentAttempts.id, ids) : undefined),
    limit,
  });
  const claimed = await db
    .update(paymentAttempts)
    .set({ checks: sql`${paymentAttempts.checks} + 1`, nextCheckAt: new Date(now.getTime() + policy.leaseMs) })
    .where(and(due, eq(paymentAttempts.status, "started")))
    .returning();

  const report: ReconcileReport = { claimed: claimed.length, paid: 0, declined: 0, abandoned: 0, rescheduled: 0 };
  await mapWithLimit(claimed, concurrency, async (attempt) => {
    try {
      report[await reconcileOne(deps, attempt, now, policy)] += 1;
    } catch (error) {
      // Left with its lease: the next sweep, set for the earliest check, asks again once it has run out.
      logger.error(`Payment attempt ${attempt.id} could not be reconciled: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return report;
}

async function reconcileOne(
  deps: ServiceDeps,
  attempt: PaymentAttempt,
  now: Date,
  policy: ReconcilePolicy,
): Promise<"paid" | "declined" | "abandoned" | "rescheduled"> {
  const { db } = deps;
  const outcome = await reconfirmAttempt(deps, attempt);
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
  return "rescheduled";
}
