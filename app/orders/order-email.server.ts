import { orderTaxNoteOf } from "~/tax/tax-note.server";
import { publicBaseUrl, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { deliverEmail, deliveryStatus } from "~/services/email/deliveries.server";
import {
  orderCancelledEmail,
  orderConfirmationEmail,
  orderShippedEmail,
  paymentReturnedEmail,
  refundIssuedEmail,
} from "~/services/email/templates";
import type { StoreRuntime } from "~/store-runtime";
import type { ConfirmationEmailState } from "./confirmation-email";
import type { Order } from "./orders.server";
import { storeLog } from "~/observability/logger.server";
import type { PaymentAttempt } from "~/payments/attempts.server";
import { formatLongDate, formatUsd } from "~/utils/format";
import { trackingUrl } from "./shipping";

/** What sending an order's email takes of the runtime: the delivery queue's database, the store's details and the sender built once. */
type OrderMail = Pick<StoreRuntime, "db" | "jobs" | "config" | "emailSender">;

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
  { db, jobs, config, emailSender }: OrderMail,
  order: Order,
  { logger = storeLog }: { logger?: Pick<Console, "error"> } = {},
): Promise<ConfirmationResult> {
  try {
    const message = { to: order.customer.email, ...confirmationEmailFor(order, config) };
    const result = await deliverEmail({ db, jobs }, emailSender, message, {
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

function confirmationEmailFor(order: Order, config: Config) {
  return orderConfirmationEmail({
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    orderId: order.orderId,
    orderUrl: orderStatusUrl(publicBaseUrl(config), order.orderId),
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
    taxCents: order.taxCents,
    taxNote: orderTaxNoteOf(order),
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
  { db, jobs, config, emailSender }: OrderMail,
  input: { attemptId: string; amountCents: number; customer: { email: string; firstName: string }; notice: string; orderId: string | null },
): Promise<void> {
  const baseUrl = publicBaseUrl(config);
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
      { db, jobs },
      emailSender,
      { to: input.customer.email, ...message },
      { reference: `payment-returned:${input.attemptId}` },
    );
  } catch (error) {
    storeLog.error(`Payment ${input.attemptId}: the shopper's refund notice not handled: ${String(error)}`);
  }
}

/** What every after-sale email of an order needs: the store, the shopper, the order and its page. */
function aboutOrder(order: Pick<Order, "orderId" | "customer">, config: Config) {
  return {
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    customerFirstName: order.customer.firstName,
    orderId: order.orderId,
    orderUrl: orderStatusUrl(publicBaseUrl(config), order.orderId),
  };
}

/** Queues and first-tries one email under its reference; a second call with the reference sends nothing. */
async function deliverOnce(
  { db, jobs, emailSender }: OrderMail,
  to: string,
  message: Awaited<ReturnType<typeof orderShippedEmail>>,
  reference: string,
) {
  try {
    const result = await deliverEmail({ db, jobs }, emailSender, { to, ...message }, { reference });
    return result.status;
  } catch (error) {
    storeLog.error(`Email ${reference} not handled: ${String(error)}`);
    return "failed" as const;
  }
}

/**
 * "Your order has shipped", with the carrier's tracking link: once per order (`order-shipped:{orderId}`),
 * however often Shipped is posted or by how many processes. A corrected carrier or number is sent once per
 * parcel (`tracking-corrected:{orderId}:{carrier}:{number}`), never as a second "shipped".
 */
export async function sendShippedEmail(
  mail: OrderMail,
  order: Pick<Order, "orderId" | "customer" | "carrier" | "trackingNumber">,
  { corrected = false, returnUrl = null }: { corrected?: boolean; returnUrl?: string | null } = {},
) {
  if (!order.carrier || !order.trackingNumber) return "failed" as const;
  const message = orderShippedEmail({
    ...aboutOrder(order, mail.config),
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: trackingUrl(order.carrier, order.trackingNumber),
    corrected,
    returnUrl,
  });
  const reference = corrected
    ? `tracking-corrected:${order.orderId}:${order.carrier}:${order.trackingNumber}`
    : shippedReference(order.orderId);
  return deliverOnce(mail, order.customer.email, message, reference);
}

export function shippedReference(orderId: string): string {
  return `order-shipped:${orderId}`;
}

/** Where a refund of the payment goes, and when it typically arrives, per provider. */
function refundWords(payment: Pick<PaymentAttempt, "provider" | "authorizationExpiresAt" | "capturedAt">): {
  method: string;
  arrival: string;
} {
  switch (payment.provider) {
    case "test":
      return { method: "the test payment page (a test order: no money moved)", arrival: "Nothing will arrive: no money moved." };
    case "affirm":
      return payment.authorizationExpiresAt && !payment.capturedAt
        ? {
            method: "your Affirm loan, which is cancelled",
            arrival: "You owe Affirm nothing for this order; your Affirm account shows the loan cancelled within a few business days.",
          }
        : {
            method: "your Affirm loan",
            arrival:
              "Affirm reduces or cancels the loan and gives back any payment you made on it; your Affirm account shows it within a few business days.",
          };
    case "paypal":
      return {
        method: "your PayPal account",
        arrival:
          "PayPal usually shows it within a few days; money PayPal took from a card or bank goes back there in 5 to 10 business days.",
      };
    default:
      return {
        method: "the card you paid with",
        arrival: "Card refunds usually appear on your statement within 5 to 10 business days, depending on your bank.",
      };
  }
}

/** What happens to the money of a cancelled order, in the shopper's words. */
export function cancelledPaymentWords(
  payment: Pick<PaymentAttempt, "provider" | "amountCents" | "authorizationExpiresAt" | "capturedAt" | "refundedAt"> | null,
  orderProvider: string,
): string {
  if (orderProvider === "test" && payment?.provider !== "test")
    return "This was a test order paid on the store's test payment page: no money moved, so there is nothing to refund.";
  if (!payment) return "If you were charged, we will refund the payment and email you when the refund is issued.";
  if (payment.provider === "test")
    return "This was a test order paid on the store's test payment page: no money moved, so there is nothing to refund.";
  const { method, arrival } = refundWords(payment);
  if (payment.refundedAt)
    return `We refunded ${formatUsd(payment.amountCents)} to ${method} on ${formatLongDate(payment.refundedAt)}. ${arrival}`;
  if (payment.provider === "affirm" && payment.authorizationExpiresAt && !payment.capturedAt)
    return "Your Affirm loan was never charged: we are cancelling it with Affirm, so you will owe nothing for this order. We will email you when it is done.";
  return `We are refunding your payment of ${formatUsd(payment.amountCents)} to ${method}, and will email you when the refund is issued.`;
}

/** The order was cancelled, and what happens to the payment: once per order (`order-cancelled:{orderId}`). */
export async function sendCancelledEmail(
  mail: OrderMail,
  order: Pick<Order, "orderId" | "customer" | "paymentProvider">,
  payment: Parameters<typeof cancelledPaymentWords>[0],
) {
  const message = orderCancelledEmail({
    ...aboutOrder(order, mail.config),
    payment: cancelledPaymentWords(payment, order.paymentProvider),
  });
  return deliverOnce(mail, order.customer.email, message, `order-cancelled:${order.orderId}`);
}

/**
 * A refund of the order's payment went through: the amount it gave back (the payment, or what returns
 * had left of it), where and when, once per payment (`refund-issued:{attemptId}`).
 */
export async function sendRefundIssuedEmail(
  mail: OrderMail,
  order: Pick<Order, "orderId" | "customer">,
  payment: PaymentAttempt,
  amountCents: number = payment.amountCents,
) {
  const { method, arrival } = refundWords(payment);
  const message = refundIssuedEmail({ ...aboutOrder(order, mail.config), amountCents, method, arrival });
  return deliverOnce(mail, order.customer.email, message, `refund-issued:${payment.id}`);
}
