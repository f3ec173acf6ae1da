import { getConfig } from "~/config.server";
import type { Database } from "~/db/database.server";
import { deliverEmail, deliveryStatus } from "~/services/email/deliveries.server";
import { emailSenderFor } from "~/services/email/index.server";
import { orderConfirmationEmail, paymentReturnedEmail } from "~/services/email/templates";
import type { EmailSender } from "~/services/email/types";
import type { ConfirmationEmailState } from "./confirmation-email";
import type { Order } from "./orders.server";
import { storeLog } from "~/http/logger.server";

export function orderStatusUrl(baseUrl: string, orderId: string): string {
  return `${baseUrl}/order-status/${encodeURIComponent(orderId)}`;
}

/**
 * What became of the confirmation: sent now, queued (the provider failed: the
 * retry loop sends it later), already sent or queued by an earlier call, or
 * failed (given up, or neither sent nor kept; logged).
 */
export type ConfirmationResult = "sent" | "queued" | "already-sent" | "failed";

/** The delivery queue's reference of an order's confirmation: one confirmation per order. */
export function confirmationReference(orderId: string): string {
  return `order-confirmation:${orderId}`;
}

/**
 * Emails an order's confirmation once, whoever asks (payment confirmation,
 * `/newPurchase`): the delivery queue's unique reference makes the first
 * caller the only sender. A failed send never throws and never undoes the
 * order: the email stays queued and is retried (`deliveries.server.ts`).
 */
export async function sendOrderConfirmation(
  db: Database,
  order: Order,
  baseUrl: string,
  { sender, logger = storeLog }: { sender?: EmailSender; logger?: Pick<Console, "error"> } = {},
): Promise<ConfirmationResult> {
  try {
    const message = { to: order.customer.email, ...confirmationEmailFor(order, baseUrl) };
    const result = await deliverEmail(db, sender ?? emailSenderFor(db), message, {
      reference: confirmationReference(order.orderId),
      logger,
    });
    switch (result.status) {
      case "sent":
        return "sent";
      case "queued":
        return "queued";
      case "failed":
        return "failed";
      case "duplicate":
        return result.existing === "sent" ? "already-sent" : result.existing === "pending" ? "queued" : "failed";
    }
  } catch (error) {
    // The order is recorded whatever happens to its email.
    logger.error(`Order ${order.orderId}: confirmation email not handled: ${String(error)}`);
    return "failed";
  }
}

export async function confirmationEmailState(db: Database, orderId: string): Promise<ConfirmationEmailState> {
  const status = await deliveryStatus(db, confirmationReference(orderId)).catch(() => null);
  return status ?? "pending";
}

function confirmationEmailFor(order: Order, baseUrl: string) {
  const config = getConfig();
  return orderConfirmationEmail({
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    orderId: order.orderId,
    orderUrl: orderStatusUrl(baseUrl, order.orderId),
    customerFirstName: order.customer.firstName,
    items: order.items.map((item) => ({
      title: item.title,
      model: item.model,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
    })),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    discountCents: order.discountCents,
    totalCents: order.totalCents,
    createdAt: order.createdAt,
    isTestPayment: order.paymentProvider === "test",
  });
}

/**
 * Tells the shopper that a payment is being given back (a second payment of a paid checkout, or one
 * that lost its discount), once per payment: the delivery queue's reference is the attempt.
 */
export async function sendPaymentReturnedNotice(
  db: Database,
  input: { attemptId: string; amountCents: number; customer: { email: string; firstName: string }; notice: string; orderId: string | null },
  baseUrl: string,
): Promise<void> {
  const config = getConfig();
  const message = paymentReturnedEmail({
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    customerFirstName: input.customer.firstName,
    notice: input.notice,
    amountCents: input.amountCents,
    orderId: input.orderId,
    orderUrl: input.orderId ? orderStatusUrl(baseUrl, input.orderId) : null,
  });
  try {
    await deliverEmail(
      db,
      emailSenderFor(db),
      { to: input.customer.email, ...message },
      { reference: `payment-returned:${input.attemptId}` },
    );
  } catch (error) {
    storeLog.error(`Payment ${input.attemptId}: the shopper's refund notice not handled: ${String(error)}`);
  }
}
