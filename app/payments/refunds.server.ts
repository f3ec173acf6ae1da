import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { paymentAttempts, paymentAuditEntries } from "~/db/schema";
import { PaymentError } from "~/services/payments/types";
import { formatUsd } from "~/utils/format";
import type { PaymentAttempt } from "./attempts.server";
import { providerForAttempt } from "./attempt-provider.server";

export type RefundOutcome = { ok: true; message: string; refundReference: string } | { ok: false; status: number; message: string };

/** Who refunds when no person pressed Refund: the store, for a second payment of a paid checkout. */
export const STORE_ACTOR = "store (automatic)";

/** A claim older than this belongs to a process that died mid-refund; the provider's idempotency key keeps a retry single. */
const REFUND_CLAIM_SECONDS = 120;

/**
 * Gives one payment back in full through its provider (a refund, or a void before settlement), once:
 * the attempt's row is claimed before the provider is asked, so two Refund posts make one provider call
 * and one "refunded" audit entry. Every answer is audited under `actor`.
 */
export async function refundAttempt(db: Database, config: Config, attempt: PaymentAttempt, actor: string): Promise<RefundOutcome> {
  if (!(await claimRefund(db, attempt.id))) {
    const [now] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id));
    return now?.refundedAt
      ? { ok: false, status: 409, message: `Payment ${attempt.id} was already refunded (${now.refundReference}).` }
      : { ok: false, status: 409, message: `A refund of payment ${attempt.id} is already under way.` };
  }
  const audit = (outcome: string, detail: string) =>
    db.insert(paymentAuditEntries).values({ attemptId: attempt.id, staffEmail: actor, action: "refund", outcome, detail });
  const giveUp = async (outcome: string, detail: string, answer: RefundOutcome) => {
    await releaseRefund(db, attempt.id);
    await audit(outcome, detail);
    return answer;
  };

  const provider = providerForAttempt(db, config, attempt);
  const paymentId = attempt.paymentId ?? attempt.reference;
  if (!provider?.refundPayment || !attempt.reference || !paymentId) {
    return giveUp("unavailable", `${attempt.provider} is not configured`, {
      ok: false,
      status: 503,
      message: `Refunds through ${attempt.provider} are not available right now. Nothing was refunded.`,
    });
  }
  try {
    const result = await provider.refundPayment({
      attemptId: attempt.id,
      reference: attempt.reference,
      paymentId,
      amountCents: attempt.amountCents,
    });
    if (result.status === "refused") {
      return giveUp("refused", result.message, { ok: false, status: 502, message: `The refund was refused: ${result.message}` });
    }
    await db
      .update(paymentAttempts)
      .set({ refundReference: result.refundReference, refundedAt: sql`now()`, refundStartedAt: null, updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attempt.id));
    await audit("refunded", result.refundReference);
    return {
      ok: true,
      refundReference: result.refundReference,
      message: `Refunded ${formatUsd(attempt.amountCents)} to the shopper (${attempt.provider} refund ${result.refundReference}).`,
    };
  } catch (error) {
    if (!(error instanceof PaymentError)) {
      await releaseRefund(db, attempt.id);
      throw error;
    }
    return giveUp("failed", error.message, {
      ok: false,
      status: 502,
      message: `${attempt.provider} could not be reached. Nothing was refunded; please try again.`,
    });
  }
}

async function claimRefund(db: Database, attemptId: string): Promise<boolean> {
  const claimed = await db
    .update(paymentAttempts)
    .set({ refundStartedAt: sql`now()` })
    .where(
      and(
        eq(paymentAttempts.id, attemptId),
        isNull(paymentAttempts.refundedAt),
        or(
          isNull(paymentAttempts.refundStartedAt),
          lt(paymentAttempts.refundStartedAt, sql`now() - make_interval(secs => ${REFUND_CLAIM_SECONDS})`),
        ),
      ),
    )
    .returning({ id: paymentAttempts.id });
  return claimed.length > 0;
}

async function releaseRefund(db: Database, attemptId: string): Promise<void> {
  await db.update(paymentAttempts).set({ refundStartedAt: null }).where(eq(paymentAttempts.id, attemptId));
}
