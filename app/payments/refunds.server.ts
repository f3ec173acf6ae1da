import type { ServiceDeps } from "~/store-runtime";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { databaseNow, leaseIsFree } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { afterSaleRequests, orders, paymentAttempts, paymentAuditEntries } from "~/db/schema";
import { PaymentError } from "~/services/payments/types";
import { formatUsd } from "~/utils/format";
import type { PaymentAttempt } from "./attempts.server";
import { refunds } from "~/observability/metrics.server";
import { queueTaxRecording, recordFullTaxReversal } from "~/tax/tax-transactions.server";
import type { Refusal } from "~/http/refusals";

export type RefundOutcome = { ok: true; message: string; refundReference: string } | { ok: false; refusal: Refusal; message: string };

/** Who refunds when no person pressed Refund: the store, for a second payment of a paid checkout. */
export const STORE_ACTOR = "store (automatic)";

/** A claim older than this belongs to a process that died mid-refund; the provider's idempotency key keeps a retry single. */
const REFUND_CLAIM_SECONDS = 120;

/**
 * Gives one payment back in full through its provider (a refund, or a void before settlement), once:
 * the attempt's row is claimed before the provider is asked, so two Refund posts make one provider call
 * and one "refunded" audit entry. Every answer is audited under `actor`. A payment partly refunded
 * already (returned items, `refundPartOfPayment`) gets only the rest back, as a refund of that amount.
 */
export async function refundAttempt(deps: ServiceDeps, attempt: PaymentAttempt, actor: string): Promise<RefundOutcome> {
  const { db } = deps;
  if (!(await claimRefund(db, attempt.id))) return refundRefusal(db, attempt.id);
  const audit = (outcome: string, detail: string) => {
    countRefund(attempt.provider, outcome);
    return db.insert(paymentAuditEntries).values({ attemptId: attempt.id, staffEmail: actor, action: "refund", outcome, detail });
  };
  const giveUp = async (outcome: string, detail: string, answer: RefundOutcome) => {
    await releaseRefund(db, attempt.id);
    await audit(outcome, detail);
    return answer;
  };
  // Read under the claim: no partial refund of this payment can start while it is held.
  const partlyRefunded = await partlyRefundedCents(db, attempt);
  const restCents = attempt.amountCents - partlyRefunded;
  if (restCents <= 0) {
    await releaseRefund(db, attempt.id);
    return {
      ok: false,
      refusal: "conflict",
      message: `Payment ${attempt.id} was already refunded in full for returned items. Nothing more was refunded.`,
    };
  }

  const provider = deps.payments.forAttempt(attempt);
  const paymentId = attempt.paymentId ?? attempt.reference;
  if (!provider?.refundPayment || !attempt.reference || !paymentId) {
    return giveUp("unavailable", `${attempt.provider} is not configured`, {
      ok: false,
      refusal: "unavailable",
      message: `Refunds through ${attempt.provider} are not available right now. Nothing was refunded.`,
    });
  }
  try {
    const result = await provider.refundPayment({
      attemptId: attempt.id,
      reference: attempt.reference,
      paymentId,
      amountCents: restCents,
      ...(partlyRefunded > 0 ? { part: { idempotencyKey: `refund-${attempt.id}-rest-${restCents}` } } : {}),
    });
    if (result.status === "refused") {
      return giveUp("refused", result.message, {
        ok: false,
        refusal: "provider-refused",
        message: `The refund was refused: ${result.message}`,
      });
    }
    // The refund and the reversal of its order's tax are recorded together: one refund, one reversal.
    const reversed = await db.transaction(async (tx) => {
      await tx
        .update(paymentAttempts)
        .set({ refundReference: result.refundReference, refundedAt: databaseNow, refundStartedAt: null, updatedAt: databaseNow })
        .where(eq(paymentAttempts.id, attempt.id));
      return reverseTaxOfRefundedOrder(tx, attempt);
    });
    if (reversed) await queueTaxRecording(deps.jobs);
    await audit("refunded", result.refundReference);
    return {
      ok: true,
      refundReference: result.refundReference,
      message:
        partlyRefunded > 0
          ? `Refunded the remaining ${formatUsd(restCents)} to the shopper (${formatUsd(partlyRefunded)} had been refunded for returned items; ${attempt.provider} refund ${result.refundReference}).`
          : `Refunded ${formatUsd(attempt.amountCents)} to the shopper (${attempt.provider} refund ${result.refundReference}).`,
    };
  } catch (error) {
    if (!(error instanceof PaymentError)) {
      await releaseRefund(db, attempt.id);
      throw error;
    }
    return giveUp("failed", error.message, {
      ok: false,
      refusal: "provider-refused",
      message: `${attempt.provider} could not be reached. Nothing was refunded; please try again.`,
    });
  }
}

/** A payment given back in full whose order it paid (not a second payment of it): that order's tax is reversed, what is left of it. */
async function reverseTaxOfRefundedOrder(tx: Pick<Database, "select" | "insert">, attempt: PaymentAttempt): Promise<boolean> {
  const paymentId = attempt.paymentId ?? attempt.reference;
  if (!paymentId) return false;
  const [order] = await tx
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(and(eq(orders.paymentReference, paymentId), eq(orders.checkoutToken, attempt.checkoutToken)));
  if (!order) return false;
  return recordFullTaxReversal(tx, { orderId: order.orderId, source: `refund:${attempt.id}`, reference: `${order.orderId}-refund` });
}

/** Why a payment's refund claim was not had: refunded already, or another refund of it under way. */
async function refundRefusal(db: Database, attemptId: string): Promise<RefundOutcome & { ok: false }> {
  const [now] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
  return now?.refundedAt
    ? { ok: false, refusal: "conflict", message: `Payment ${attemptId} was already refunded (${now.refundReference}).` }
    : { ok: false, refusal: "conflict", message: `A refund of payment ${attemptId} is already under way.` };
}

/**
 * What returns have given back of this payment so far: the refunds of its order's after-sale requests
 * (one order per payment). A refund claimed but not recorded yet holds the payment's claim, so it is
 * never counted twice nor missed by a caller that holds that claim.
 */
export async function partlyRefundedCents(db: Pick<Database, "select">, attempt: PaymentAttempt): Promise<number> {
  const paymentId = attempt.paymentId ?? attempt.reference;
  if (!paymentId) return 0;
  const [row] = await db
    .select({ total: sql<string | null>`sum(${afterSaleRequests.refundCents})` })
    .from(afterSaleRequests)
    .innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId))
    .where(and(eq(orders.paymentReference, paymentId), isNotNull(afterSaleRequests.refundedAt)));
  return Number(row?.total ?? 0);
}

export type PartRefundOutcome =
  | { ok: true; refundReference: string; amountCents: number }
  /** `refused`: the provider said no, so nothing moved (a retry needs a new idempotency key); `unreachable`: it may have, so a retry keeps the key. */
  | { ok: false; refusal: Refusal; message: string; provider?: { said: "refused" | "unreachable"; detail: string } };

/**
 * Gives back part of a payment (a received return), once: the payment's row is claimed as for a whole
 * refund, so a part and the whole (or two parts) never run at once; the amount must fit in what the
 * payment still holds (its amount less earlier parts). `record` stores the result (the request's
 * refund) before the claim is released, so the next refund counts it. A test payment moved no money:
 * its part is recorded without asking anyone. Audited under `actor` whatever the answer.
 */
export async function refundPartOfPayment(
  deps: ServiceDeps,
  attempt: PaymentAttempt,
  input: { amountCents: number; idempotencyKey: string; actor: string; record: (refundReference: string) => Promise<void> },
): Promise<PartRefundOutcome> {
  const { db } = deps;
  if (attempt.refundedAt) return refundRefusal(db, attempt.id);
  if (!(await claimRefund(db, attempt.id))) return refundRefusal(db, attempt.id);
  const audit = (outcome: string, detail: string) => {
    countRefund(attempt.provider, outcome);
    return db
      .insert(paymentAuditEntries)
      .values({ attemptId: attempt.id, staffEmail: input.actor, action: "partial refund", outcome, detail });
  };
  const giveUp = async (outcome: string, detail: string, answer: PartRefundOutcome) => {
    await releaseRefund(db, attempt.id);
    await audit(outcome, detail);
    return answer;
  };
  try {
    const restCents = attempt.amountCents - (await partlyRefundedCents(db, attempt));
    if (input.amountCents > restCents) {
      await releaseRefund(db, attempt.id);
      return {
        ok: false,
        refusal: "conflict",
        message: `Only ${formatUsd(Math.max(0, restCents))} of this payment is left to refund. Nothing was refunded.`,
      };
    }
    let refundReference: string;
    if (attempt.provider === "test") {
      refundReference = `test-refund-${input.idempotencyKey}`;
    } else {
      const provider = deps.payments.forAttempt(attempt);
      const paymentId = attempt.paymentId ?? attempt.reference;
      if (!provider?.refundPayment || !attempt.reference || !paymentId) {
        return giveUp("unavailable", `${attempt.provider} is not configured`, {
          ok: false,
          refusal: "unavailable",
          message: `Refunds through ${attempt.provider} are not available right now. Nothing was refunded.`,
        });
      }
      const result = await provider.refundPayment({
        attemptId: attempt.id,
        reference: attempt.reference,
        paymentId,
        amountCents: input.amountCents,
        part: { idempotencyKey: input.idempotencyKey },
      });
      if (result.status === "refused") {
        return giveUp("refused", result.message, {
          ok: false,
          refusal: "provider-refused",
          message: `The refund was refused: ${result.message}`,
          provider: { said: "refused", detail: result.message },
        });
      }
      refundReference = result.refundReference;
    }
    await input.record(refundReference);
    await releaseRefund(db, attempt.id);
    await audit("refunded", `${formatUsd(input.amountCents)}: ${refundReference}`);
    return { ok: true, refundReference, amountCents: input.amountCents };
  } catch (error) {
    if (!(error instanceof PaymentError)) {
      await releaseRefund(db, attempt.id);
      throw error;
    }
    return giveUp("failed", error.message, {
      ok: false,
      refusal: "provider-refused",
      message: `${attempt.provider} could not be reached. Nothing was refunded; please try again.`,
      provider: { said: "unreachable", detail: error.message },
    });
  }
}

/** A refund the provider was asked for (or could not be): issued, or failed (refused, unreachable, not configured). */
function countRefund(provider: string, auditedOutcome: string): void {
  refunds.inc({ provider, outcome: auditedOutcome === "refunded" ? "issued" : "failed" });
}

async function claimRefund(db: Database, attemptId: string): Promise<boolean> {
  const claimed = await db
    .update(paymentAttempts)
    .set({ refundStartedAt: databaseNow })
    .where(
      and(
        eq(paymentAttempts.id, attemptId),
        isNull(paymentAttempts.refundedAt),
        leaseIsFree(paymentAttempts.refundStartedAt, REFUND_CLAIM_SECONDS),
      ),
    )
    .returning({ id: paymentAttempts.id });
  return claimed.length > 0;
}

async function releaseRefund(db: Database, attemptId: string): Promise<void> {
  await db.update(paymentAttempts).set({ refundStartedAt: null }).where(eq(paymentAttempts.id, attemptId));
}
