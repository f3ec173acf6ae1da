import type { ServiceDeps } from "~/store-runtime";
import { and, desc, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { orders, paymentAttempts } from "~/db/schema";
import { getAttempt, type PaymentAttempt } from "./attempts.server";
import { partlyRefundedCents, refundAttempt, type RefundOutcome } from "./refunds.server";

/** A payment staff may need to act on, as the dashboard lists it. */
export interface MoneyProblem {
  attemptId: string;
  provider: string;
  method: string;
  reference: string | null;
  /** What its Refund gives back: the payment, less what returns already gave back of a cancelled order's. */
  amountCents: number;
  checkoutToken: string;
  /** The order of this checkout, if any (paid by this payment or by another one). */
  orderId: string | null;
  why: "duplicate" | "discount-taken" | "stock-gone" | "order-cancelled" | "no-order" | "capture-due";
  createdAt: string;
  /** The refund already made (the store's own, or staff's), if any. */
  refundReference: string | null;
  /** For an authorized-only payment: when the provider stops honouring its capture. */
  authorizationExpiresAt: string | null;
}

export interface MoneyProblems {
  /** Second payments of a paid checkout (and late payments that lost their discount or their stock): the store refunds them at once; listed first. */
  chargedTwice: MoneyProblem[];
  /** Payments of cancelled orders not refunded yet. */
  toRefund: MoneyProblem[];
  /** Payments the provider approved for which no order exists (the reconciler records them; listed until it has). */
  paidWithoutOrder: MoneyProblem[];
  /** Authorized-only payments (Affirm) of live orders not captured yet, whose authorization ends within CAPTURE_WARNING_DAYS. */
  captureDue: MoneyProblem[];
  /** Orders paid on the offline test page: no money moved, nothing to refund. */
  testOrders: { orderId: string; totalCents: number; createdAt: string }[];
}

const LIST_LIMIT = 50;
/** An uncaptured authorization is flagged this long before it expires. */
export const CAPTURE_WARNING_DAYS = 7;

type Row = { attempt: PaymentAttempt; order: { orderId: string; status: string; paymentReference: string } | null };

export async function listMoneyProblems(db: Database, now = new Date()): Promise<MoneyProblems> {
  const rows: Row[] = await db
    .select({
      attempt: paymentAttempts,
      order: { orderId: orders.orderId, status: orders.status, paymentReference: orders.paymentReference },
    })
    .from(paymentAttempts)
    .leftJoin(orders, eq(orders.checkoutToken, paymentAttempts.checkoutToken))
    .where(
      and(
        eq(paymentAttempts.status, "approved"),
        ne(paymentAttempts.provider, "test"),
        or(isNull(paymentAttempts.refundedAt), isNotNull(paymentAttempts.refundReason)),
      ),
    )
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(500);
  const problems: MoneyProblems = { chargedTwice: [], toRefund: [], paidWithoutOrder: [], captureDue: [], testOrders: [] };
  const warnBefore = new Date(now.getTime() + CAPTURE_WARNING_DAYS * 86_400_000);
  for (const row of rows) {
    const why = whyListed(row, warnBefore);
    if (!why) continue;
    const problem = toProblem(row, why);
    // A cancelled order's payment partly given back for returns: its Refund gives back the rest, and says so.
    if (why === "order-cancelled") {
      problem.amountCents -= await partlyRefundedCents(db, row.attempt);
      if (problem.amountCents <= 0) continue;
    }
    const list = {
      duplicate: "chargedTwice",
      "discount-taken": "chargedTwice",
      "stock-gone": "chargedTwice",
      "order-cancelled": "toRefund",
      "no-order": "paidWithoutOrder",
      "capture-due": "captureDue",
    } as const;
    problems[list[why]].push(problem);
  }
  const testOrders = await db
    .select({ orderId: orders.orderId, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.paymentProvider, "test"))
    .orderBy(desc(orders.createdAt))
    .limit(LIST_LIMIT);
  return {
    chargedTwice: problems.chargedTwice.slice(0, LIST_LIMIT),
    toRefund: problems.toRefund.slice(0, LIST_LIMIT),
    paidWithoutOrder: problems.paidWithoutOrder.slice(0, LIST_LIMIT),
    captureDue: problems.captureDue.slice(0, LIST_LIMIT),
    testOrders: testOrders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
  };
}

/** Why staff must look at this approved payment, if at all: matched by the payment's own id, never by its checkout reference. */
function whyListed({ attempt, order }: Row, warnBefore: Date): MoneyProblem["why"] | null {
  if (attempt.refundReason === "duplicate" || attempt.refundReason === "discount-taken" || attempt.refundReason === "stock-gone")
    return attempt.refundReason;
  if (attempt.refundedAt) return null;
  if (!order) return "no-order";
  if (order.paymentReference !== (attempt.paymentId ?? attempt.reference)) return "duplicate";
  if (order.status === "Cancelled") return "order-cancelled";
  const expires = attempt.authorizationExpiresAt;
  if (expires && !attempt.capturedAt && expires <= warnBefore) return "capture-due";
  return null;
}

function toProblem({ attempt, order }: Row, why: MoneyProblem["why"]): MoneyProblem {
  return {
    attemptId: attempt.id,
    provider: attempt.provider,
    method: attempt.method,
    reference: attempt.paymentId ?? attempt.reference,
    amountCents: attempt.amountCents,
    checkoutToken: attempt.checkoutToken,
    orderId: order?.orderId ?? null,
    why,
    createdAt: attempt.createdAt.toISOString(),
    refundReference: attempt.refundReference,
    authorizationExpiresAt: attempt.authorizationExpiresAt?.toISOString() ?? null,
  };
}

export type { RefundOutcome } from "./refunds.server";

/**
 * Staff's Refund: gives back a payment no live order holds (a duplicate, or the payment of a
 * cancelled order) through its provider, once, with an audit entry whatever the answer.
 */
export async function refundPayment(deps: ServiceDeps, attemptId: string, staffEmail: string): Promise<RefundOutcome> {
  const { db } = deps;
  const attempt = await getAttempt(db, attemptId);
  if (!attempt) return { ok: false, refusal: "not-found", message: "Payment not found." };
  if (attempt.refundedAt)
    return { ok: false, refusal: "conflict", message: `Payment ${attempt.id} was already refunded (${attempt.refundReference}).` };
  const problems = await listMoneyProblems(db);
  const refundable = [...problems.chargedTwice, ...problems.toRefund];
  if (!refundable.some((problem) => problem.attemptId === attempt.id)) {
    return {
      ok: false,
      refusal: "conflict",
      message: "Only a duplicate payment, or the payment of a cancelled order, can be refunded here.",
    };
  }
  return refundAttempt(deps, attempt, staffEmail);
}
