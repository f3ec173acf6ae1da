import { and, eq, min, ne } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { paymentAttempts } from "~/db/schema";
import type { ServiceDeps } from "~/store-runtime";
import { generateToken } from "~/orders/order-id";
import { releasePromo } from "~/pricing/promo-redemptions.server";
import { releaseCheckoutHolds } from "~/stock/stock-holds.server";
import type { PaymentMethod, PaymentProviderId } from "~/services/payments/types";
import { logError } from "~/observability/logger.server";
import { paymentAttempts as paymentAttemptsCounted } from "~/observability/metrics.server";

export type PaymentAttempt = typeof paymentAttempts.$inferSelect;

/** The reconciler first asks about an attempt this long after it started, in case its return never comes. */
export const FIRST_CHECK_DELAY_MS = 5 * 60_000;

/** Attempt ids travel in return URLs: random, and checked for shape before any query. */
const ATTEMPT_ID = /^pa_[A-Za-z0-9]{10,64}$/;

export async function createAttempt(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  values: { checkoutToken: string; method: PaymentMethod; provider: PaymentProviderId; amountCents: number },
): Promise<PaymentAttempt> {
  const [attempt] = await db
    .insert(paymentAttempts)
    .values({ id: `pa_${generateToken()}`, ...values, nextCheckAt: new Date(Date.now() + FIRST_CHECK_DELAY_MS) })
    .returning();
  paymentAttemptsCounted.inc({ provider: attempt.provider, outcome: "started" });
  // The reconciler's sweep at the first check (reconciler.server.ts); a shopper's payment never fails for it.
  await jobs.send("payment.reconcile", {}, { startAfter: attempt.nextCheckAt ?? undefined }).catch((error: unknown) => {
    logError(`Payment attempt ${attempt.id}: its check could not be scheduled (the next start schedules it)`, error);
  });
  return attempt;
}

export async function setAttemptReference(db: Database, id: string, reference: string): Promise<void> {
  await db.update(paymentAttempts).set({ reference, updatedAt: new Date() }).where(eq(paymentAttempts.id, id));
}

/**
 * A payment that did not go through. An approved payment never goes back: a late or replayed answer
 * about it changes nothing. A decided attempt is no longer checked by the reconciler, and gives back its
 * checkout's promo code.
 */
export async function markAttemptDeclined(db: Database, id: string, message: string): Promise<void> {
  const [attempt] = await db
    .update(paymentAttempts)
    .set({ status: "declined", message, updatedAt: new Date(), nextCheckAt: null })
    .where(and(eq(paymentAttempts.id, id), ne(paymentAttempts.status, "approved")))
    .returning({ checkoutToken: paymentAttempts.checkoutToken, provider: paymentAttempts.provider });
  if (!attempt) return;
  paymentAttemptsCounted.inc({ provider: attempt.provider, outcome: "declined" });
  await releasePromo(db, attempt.checkoutToken);
  await releaseCheckoutHolds(db, attempt.checkoutToken);
}

/** The provider holds this attempt's money (`paymentId`, the id an order records); `message` says what staff must know. */
export async function markAttemptApproved(
  db: Database,
  id: string,
  payment: {
    paymentId: string;
    authorizationExpiresAt: Date | null;
    refundReason?: "duplicate" | "discount-taken" | "stock-gone";
    message?: string;
  },
): Promise<void> {
  const values = {
    status: "approved" as const,
    paymentId: payment.paymentId,
    authorizationExpiresAt: payment.authorizationExpiresAt,
    refundReason: payment.refundReason ?? null,
    message: payment.message ?? null,
    nextCheckAt: null,
    updatedAt: new Date(),
  };
  // Counted once: the same approval confirmed again (its return page on several processes, a webhook) is written, not counted.
  const [approved] = await db
    .update(paymentAttempts)
    .set(values)
    .where(and(eq(paymentAttempts.id, id), ne(paymentAttempts.status, "approved")))
    .returning({ provider: paymentAttempts.provider });
  if (approved) paymentAttemptsCounted.inc({ provider: approved.provider, outcome: "approved" });
  else await db.update(paymentAttempts).set(values).where(eq(paymentAttempts.id, id));
}

export async function getAttempt(db: Database, id: string): Promise<PaymentAttempt | null> {
  if (!ATTEMPT_ID.test(id)) return null;
  const [attempt] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
  return attempt ?? null;
}

/** The attempt a provider's reference belongs to (webhooks and return pages that only carry the provider's id). */
export async function findAttemptByReference(db: Database, provider: PaymentProviderId, reference: string): Promise<PaymentAttempt | null> {
  if (reference.length === 0 || reference.length > 255) return null;
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.provider, provider), eq(paymentAttempts.reference, reference)));
  return attempt ?? null;
}

/** Gives up on an attempt still started (the shopper cancelled, or the reconciler's deadline passed); a decided one is left alone. */
export async function markAttemptAbandoned(db: Database, id: string, message: string): Promise<boolean> {
  const [attempt] = await db
    .update(paymentAttempts)
    .set({ status: "abandoned", message, nextCheckAt: null, updatedAt: new Date() })
    .where(and(eq(paymentAttempts.id, id), eq(paymentAttempts.status, "started")))
    .returning({ checkoutToken: paymentAttempts.checkoutToken, provider: paymentAttempts.provider });
  if (!attempt) return false;
  paymentAttemptsCounted.inc({ provider: attempt.provider, outcome: "abandoned" });
  await releasePromo(db, attempt.checkoutToken);
  await releaseCheckoutHolds(db, attempt.checkoutToken);
  return true;
}

/** When the oldest payment still waiting for its provider's answer started, or null when none waits (the metrics' gauge). */
export async function oldestUnfinishedAttemptStartedAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ startedAt: min(paymentAttempts.createdAt) })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.status, "started"));
  return row?.startedAt ?? null;
}
