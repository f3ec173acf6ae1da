import type { ServiceDeps } from "~/store-runtime";
import { and, eq, isNull } from "drizzle-orm";
import { databaseNow } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { orders, paymentAttempts } from "~/db/schema";
import { logError } from "~/observability/logger.server";
import { normalizeOrderId } from "~/orders/order-id";
import { PaymentError } from "~/services/payments/types";
import type { PaymentAttempt } from "./attempts.server";

/** An order's own payment given back: what staff and the shopper see on the order. */
export interface OrderRefund {
  amountCents: number;
  refundedAt: Date;
  refundReference: string;
}

/**
 * The approved payment an order holds: the attempt of its checkout whose money id is the order's payment
 * reference. `db` may be a transaction (the status change reads it under the order's row lock).
 */
export async function paymentOfOrder(db: Pick<Database, "select">, orderIdInput: string): Promise<PaymentAttempt | null> {
  const orderId = normalizeOrderId(orderIdInput);
  if (!/^[A-Z0-9]{1,40}$/.test(orderId)) return null;
  const [row] = await db
    .select({ attempt: paymentAttempts })
    .from(orders)
    .innerJoin(
      paymentAttempts,
      and(
        eq(paymentAttempts.checkoutToken, orders.checkoutToken),
        eq(paymentAttempts.status, "approved"),
        eq(paymentAttempts.paymentId, orders.paymentReference),
      ),
    )
    .where(eq(orders.orderId, orderId))
    .limit(1);
  return row?.attempt ?? null;
}

export async function refundOfOrder(db: Database, orderId: string): Promise<OrderRefund | null> {
  const attempt = await paymentOfOrder(db, orderId);
  if (!attempt?.refundedAt || !attempt.refundReference) return null;
  return { amountCents: attempt.amountCents, refundedAt: attempt.refundedAt, refundReference: attempt.refundReference };
}

export type CaptureOutcome = { ok: true } | { ok: false; message: string };

/**
 * Takes an authorized-only payment (Affirm's loan) when its order ships, once: a payment already
 * captured, or one its provider captured when paid, needs nothing. A refusal keeps the order unshipped.
 */
export async function captureOrderPayment(deps: ServiceDeps, orderIdInput: string): Promise<CaptureOutcome> {
  const { db } = deps;
  const orderId = normalizeOrderId(orderIdInput);
  const attempt = await paymentOfOrder(db, orderId);
  if (!attempt || attempt.capturedAt || attempt.refundedAt || !attempt.authorizationExpiresAt) return { ok: true };
  const provider = deps.payments.forAttempt(attempt);
  if (!provider?.capturePayment) {
    return {
      ok: false,
      message: `${attempt.provider} is not configured, so its loan cannot be captured. The order was not marked Shipped.`,
    };
  }
  try {
    const result = await provider.capturePayment({
      attemptId: attempt.id,
      paymentId: attempt.paymentId ?? "",
      orderId,
      amountCents: attempt.amountCents,
    });
    if (result.status === "refused") return { ok: false, message: `${result.message}. The order was not marked Shipped.` };
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Order ${orderId}: ${attempt.provider} could not capture the payment`, error);
    return {
      ok: false,
      message: `${attempt.provider} could not be reached to capture the loan. The order was not marked Shipped; please try again.`,
    };
  }
  await db
    .update(paymentAttempts)
    .set({ capturedAt: databaseNow, updatedAt: databaseNow })
    .where(and(eq(paymentAttempts.id, attempt.id), isNull(paymentAttempts.capturedAt)));
  return { ok: true };
}
