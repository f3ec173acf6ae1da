import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { orders, paymentAttempts, paymentAuditEntries } from "~/db/schema";
import { PaymentError } from "~/services/payments/types";
import { formatUsd } from "~/utils/format";
import { getAttempt } from "./attempts.server";
import { providerForAttempt } from "./confirm-payment.server";

/** A payment staff may need to act on, as the dashboard lists it. */
export interface MoneyProblem {
  attemptId: string;
  provider: string;
  method: string;
  reference: string | null;
  amountCents: number;
  checkoutToken: string;
  /** The order of this checkout, if any (paid by this payment or by another one). */
  orderId: string | null;
  why: "duplicate" | "order-cancelled" | "no-order";
  createdAt: string;
}

export interface MoneyProblems {
  /** Money taken that no live order holds: a second payment of one checkout, or the payment of a cancelled order. */
  toRefund: MoneyProblem[];
  /** Payments the provider approved for which no order exists (the reconciler records them; listed until it has). */
  paidWithoutOrder: MoneyProblem[];
  /** Orders paid on the offline test page: no money moved, nothing to refund. */
  testOrders: { orderId: string; totalCents: number; createdAt: string }[];
}

const LIST_LIMIT = 50;

export async function listMoneyProblems(db: Database): Promise<MoneyProblems> {
  const rows = await db
    .select({
      attempt: paymentAttempts,
      order: { orderId: orders.orderId, status: orders.status, paymentReference: orders.paymentReference },
    })
    .from(paymentAttempts)
    .leftJoin(orders, eq(orders.checkoutToken, paymentAttempts.checkoutToken))
    .where(and(eq(paymentAttempts.status, "approved"), isNull(paymentAttempts.refundedAt), ne(paymentAttempts.provider, "test")))
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(500);
  const toRefund: MoneyProblem[] = [];
  const paidWithoutOrder: MoneyProblem[] = [];
  for (const { attempt, order } of rows) {
    const problem = (why: MoneyProblem["why"]): MoneyProblem => ({
      attemptId: attempt.id,
      provider: attempt.provider,
      method: attempt.method,
      reference: attempt.reference,
      amountCents: attempt.amountCents,
      checkoutToken: attempt.checkoutToken,
      orderId: order?.orderId ?? null,
      why,
      createdAt: attempt.createdAt.toISOString(),
    });
    if (!order) paidWithoutOrder.push(problem("no-order"));
    else if (order.paymentReference !== attempt.reference) toRefund.push(problem("duplicate"));
    else if (order.status === "Cancelled") toRefund.push(problem("order-cancelled"));
  }
  const testOrders = await db
    .select({ orderId: orders.orderId, totalCents: orders.totalCents, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.paymentProvider, "test"))
    .orderBy(desc(orders.createdAt))
    .limit(LIST_LIMIT);
  return {
    toRefund: toRefund.slice(0, LIST_LIMIT),
    paidWithoutOrder: paidWithoutOrder.slice(0, LIST_LIMIT),
    testOrders: testOrders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
  };
}

export type RefundOutcome = { ok: true; message: string } | { ok: false; status: number; message: string };

/**
 * Staff's Refund: gives back a payment no live order holds (a duplicate, or the payment of a
 * cancelled order) through its provider, and writes an audit entry whatever the answer. The
 * provider's idempotency key is the attempt, so a double click refunds once.
 */
export async function refundPayment(db: Database, config: Config, attemptId: string, staffEmail: string): Promise<RefundOutcome> {
  const attempt = await getAttempt(db, attemptId);
  if (!attempt) return { ok: false, status: 404, message: "Payment not found." };
  if (attempt.refundedAt)
    return { ok: false, status: 409, message: `Payment ${attempt.id} was already refunded (${attempt.refundReference}).` };
  const problems = await listMoneyProblems(db);
  if (!problems.toRefund.some((problem) => problem.attemptId === attempt.id)) {
    return { ok: false, status: 409, message: "Only a duplicate payment, or the payment of a cancelled order, can be refunded here." };
  }
  const provider = providerForAttempt(db, config, attempt);
  const audit = (outcome: string, detail: string) =>
    db.insert(paymentAuditEntries).values({ attemptId: attempt.id, staffEmail, action: "refund", outcome, detail });
  if (!provider?.refundPayment || !attempt.reference) {
    await audit("unavailable", `${attempt.provider} is not configured`);
    return { ok: false, status: 503, message: `Refunds through ${attempt.provider} are not available right now. Nothing was refunded.` };
  }
  try {
    const result = await provider.refundPayment({ attemptId: attempt.id, reference: attempt.reference, amountCents: attempt.amountCents });
    if (result.status === "refused") {
      await audit("refused", result.message);
      return { ok: false, status: 502, message: `The refund was refused: ${result.message}` };
    }
    await db
      .update(paymentAttempts)
      .set({ refundReference: result.refundReference, refundedAt: sql`now()`, updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attempt.id));
    await audit("refunded", result.refundReference);
    return {
      ok: true,
      message: `Refunded ${formatUsd(attempt.amountCents)} to the shopper (${attempt.provider} refund ${result.refundReference}).`,
    };
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    await audit("failed", error.message);
    return { ok: false, status: 502, message: `${attempt.provider} could not be reached. Nothing was refunded; please try again.` };
  }
}
