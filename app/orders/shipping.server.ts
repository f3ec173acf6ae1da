import type { ServiceDeps } from "~/store-runtime";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { publicBaseUrl } from "~/config.server";
import type { Database } from "~/db/database.server";
import { orders, paymentAttempts } from "~/db/schema";
import { log, logError } from "~/observability/logger.server";
import { quietCounter } from "~/http/quiet-log";
import type { WebhookOutcome } from "~/http/webhook-outcome.server";
import { paymentOfOrder } from "~/payments/order-payment.server";
import { partlyRefundedCents } from "~/payments/refunds.server";
import { returnLinkFor } from "~/returns/access.server";
import { parseTrackerEvent, verifyEasyPostSignature } from "~/services/shipping/easypost-tracker.server";
import { normalizeOrderId } from "./order-id";
import { findOrderByDisplayId } from "./orders.server";
import { sendCancelledEmail, sendRefundIssuedEmail, sendShippedEmail } from "./order-email.server";
import type { OrderStatus } from "./status";
import { webhookVerificationFailures } from "~/observability/metrics.server";

/**
 * What follows a status post, after its transaction: the shopper's email for Shipped (or the corrected
 * tracking) and Cancelled, and EasyPost's tracker of a new parcel (queued, retried by the job queue, never
 * in the request). Each email has its own reference, so posting the status again (after a lost answer, or
 * from a second process) sends nothing twice and sends what an interrupted first post had not.
 */
export async function announceStatus(
  deps: ServiceDeps,
  input: { orderId: string; to: OrderStatus; shipment: "recorded" | "corrected" | null; sessionSecret: string },
): Promise<void> {
  const { db, config } = deps;
  if (input.to !== "Shipped" && input.to !== "Cancelled") return;
  const order = await findOrderByDisplayId(db, input.orderId);
  if (!order) return;
  const baseUrl = publicBaseUrl(config);
  if (input.to === "Cancelled") {
    await sendCancelledEmail(deps, order, await paymentOfOrder(db, order.orderId));
    return;
  }
  // The shipped email carries the order's signed return page, which asks for no checkout email.
  const returnUrl = returnLinkFor(input.sessionSecret, baseUrl, order.orderId);
  await sendShippedEmail(deps, order, { corrected: input.shipment === "corrected", returnUrl });
  if (input.shipment && !order.trackerId && !deps.shipmentTracker.isStandIn) {
    await deps.jobs.send("shipment.track", { id: order.orderId }).catch((error: unknown) => {
      logError(`Order ${order.orderId}: the tracker could not be queued (the next start queues it)`, error);
    });
  }
}

export type DeliveryOutcome = { ok: true } | { ok: false; reason: "not-found" | "not-shipped" | "not-test" };

/**
 * Staff record the day a parcel arrived, only for an order that has shipped; the test mode's button
 * (`testOrderOnly`) only for an order paid on the test payment page.
 */
export async function recordDelivery(
  db: Database,
  orderIdInput: string,
  deliveredAt: Date,
  { testOrderOnly = false }: { testOrderOnly?: boolean } = {},
): Promise<DeliveryOutcome> {
  const orderId = normalizeOrderId(orderIdInput);
  const order = await findOrderByDisplayId(db, orderId);
  if (!order) return { ok: false, reason: "not-found" };
  if (testOrderOnly && order.paymentProvider !== "test") return { ok: false, reason: "not-test" };
  if (!order.shippedAt || !order.trackingNumber) return { ok: false, reason: "not-shipped" };
  await db
    .update(orders)
    .set({ deliveredAt, updatedAt: sql`now()` })
    .where(eq(orders.orderId, orderId));
  return { ok: true };
}

/** Forged posts log once per burst, without a stack. */
const refusals = quietCounter((msg, fields) => log("warn", msg, fields));

/**
 * EasyPost's webhook: a forged, unsigned or malformed post is a 400 and changes nothing. A signed
 * `tracker.updated` whose tracker is delivered records the delivery date on the order that tracker
 * follows, once (a replay, or a later update, keeps the first date); any other event is acknowledged.
 */
export async function handleEasyPostWebhook(
  { db, config }: Pick<ServiceDeps, "db" | "config">,
  headers: Headers,
  rawBody: string,
): Promise<WebhookOutcome> {
  if (!verifyEasyPostSignature(config.EASYPOST_WEBHOOK_SECRET, rawBody, headers.get("x-hmac-signature"))) {
    refusals.count("EasyPost webhook refused: missing or wrong signature");
    if (config.EASYPOST_WEBHOOK_SECRET) webhookVerificationFailures.inc({ provider: "easypost" });
    return { kind: "refused", error: "Invalid signature." };
  }
  const event = parseTrackerEvent(rawBody);
  if (event.kind === "malformed") return { kind: "refused", error: "Malformed event." };
  if (event.kind === "ignored" || !event.tracker.deliveredAt) return { kind: "received" };
  await db
    .update(orders)
    .set({ deliveredAt: event.tracker.deliveredAt, updatedAt: sql`now()` })
    .where(and(eq(orders.trackerId, event.tracker.id), isNull(orders.deliveredAt)));
  return { kind: "received" };
}

/**
 * After staff's Refund went through: the "Refund issued" email, when the payment was an order's own (a
 * cancelled order's). A second payment the store gave back on its own has had its notice already.
 */
export async function announceRefund(deps: ServiceDeps, attemptId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ order: orders, payment: paymentAttempts })
    .from(paymentAttempts)
    .innerJoin(orders, and(eq(orders.checkoutToken, paymentAttempts.checkoutToken), eq(orders.paymentReference, paymentAttempts.paymentId)))
    .where(and(eq(paymentAttempts.id, attemptId), isNotNull(paymentAttempts.refundedAt), isNull(paymentAttempts.refundReason)))
    .limit(1);
  if (!row) return;
  // The whole-payment Refund gives back what returns left of the payment: the email says that amount.
  const restCents = row.payment.amountCents - (await partlyRefundedCents(db, row.payment));
  if (restCents > 0) await sendRefundIssuedEmail(deps, row.order, row.payment, restCents);
}
