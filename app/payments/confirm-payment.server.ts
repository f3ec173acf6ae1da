import type { ServiceDeps } from "~/store-runtime";
import { eq } from "drizzle-orm";
import { getCheckout, type Checkout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import type { Database } from "~/db/database.server";
import { orders, type CheckoutKind } from "~/db/schema";
import { sendOrderConfirmation, sendPaymentReturnedNotice } from "~/orders/order-email.server";
import { recordPaidCheckout, type Order } from "~/orders/orders.server";
import { AFFIRM_AUTHORIZATION_FAILED, AFFIRM_TOKEN_PARAM } from "~/services/payments/affirm.server";
import {
  PAYMENT_CURRENCY,
  PaymentError,
  type PaymentMethod,
  type PaymentProvider,
  type PaymentVerification,
} from "~/services/payments/types";
import {
  findAttemptByReference,
  getAttempt,
  markAttemptAbandoned,
  markAttemptApproved,
  markAttemptDeclined,
  type PaymentAttempt,
} from "./attempts.server";
import { claimCollection, releaseCollection, type CollectionClaim } from "./collection.server";
import { CHARGED_TWICE_MESSAGE, DISCOUNT_TAKEN_MESSAGE } from "./messages";
import { refundAttempt, STORE_ACTOR } from "./refunds.server";
import { logError } from "~/observability/logger.server";
import { stockOuts } from "~/observability/metrics.server";
import { STOCK_GONE_MESSAGE } from "~/stock/stock.server";

export const PAYMENT_FAILED_FALLBACK = "An unexpected error occurred.";
export const AMOUNT_MISMATCH_MESSAGE = "The amount paid does not match the order total.";

export type PaymentOutcome =
  /** `chargedTwice`: this payment came after another paid the checkout; the store is giving it back. */
  | { status: "paid"; order: Order; kind: CheckoutKind; chargedTwice: boolean }
  | { status: "declined"; message: string; checkoutPath: string }
  | { status: "pending"; checkoutPath: string }
  | { status: "unknown" };

/**
 * Called when a shopper comes back from paying (or a provider's webhook
 * arrives). The payment must belong to the attempt the server started for
 * this checkout and method; the server asks the provider what happened, and
 * only an approved payment of the attempt's amount, in dollars, for the
 * checkout's total becomes an order. One order per checkout and per payment
 * (unique constraints), whatever the order of return visits, webhooks and
 * retries; only a newly recorded order sends the confirmation email. Money
 * that needs a step of ours (a capture) is taken only while the checkout is
 * unpaid; money a provider took on its own for a paid checkout is given back.
 */
export async function confirmPayment(
  deps: ServiceDeps,
  input: { method: PaymentMethod; checkoutToken: string; attemptId: string; returnParams?: URLSearchParams },
): Promise<PaymentOutcome> {
  const { db } = deps;
  const attempt = await getAttempt(db, input.attemptId);
  if (!attempt || attempt.checkoutToken !== input.checkoutToken || attempt.method !== input.method) return { status: "unknown" };
  return confirmAttempt(deps, attempt, input.returnParams ?? new URLSearchParams());
}

/** The same, for a provider that only tells us its own payment id (webhooks). */
export async function confirmPaymentByReference(
  deps: ServiceDeps,
  provider: PaymentProvider["id"],
  reference: string,
  hints: URLSearchParams = new URLSearchParams(),
): Promise<PaymentOutcome> {
  const { db } = deps;
  const attempt = await findAttemptByReference(db, provider, reference);
  return attempt ? confirmAttempt(deps, attempt, hints) : { status: "unknown" };
}

/** The same, for an attempt the server itself decided to ask about again (the reconciler). */
export async function reconfirmAttempt(deps: ServiceDeps, attempt: PaymentAttempt): Promise<PaymentOutcome> {
  return confirmAttempt(deps, attempt, new URLSearchParams());
}

export const CANCELLED_PAYMENT_MESSAGE = "This payment was cancelled.";
export const NOT_TAKEN_MESSAGE = "Not taken: another payment had already paid this checkout.";

async function confirmAttempt(deps: ServiceDeps, attempt: PaymentAttempt, returnParams: URLSearchParams): Promise<PaymentOutcome> {
  const { db } = deps;
  const checkout = await getCheckout(db, attempt.checkoutToken);
  if (!checkout || !attempt.reference) return { status: "unknown" };
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  // A decided payment is not asked about again: a late or replayed event (after a refund, say) changes nothing.
  if (attempt.status === "approved") {
    const order = await orderOfCheckout(db, checkout.token);
    if (order) return { status: "paid", order, kind: checkout.kind, chargedTwice: order.paymentReference !== attempt.paymentId };
    if (attempt.refundReason === "discount-taken") return { status: "declined", message: DISCOUNT_TAKEN_MESSAGE, checkoutPath };
    if (attempt.refundReason === "stock-gone") return { status: "declined", message: STOCK_GONE_MESSAGE, checkoutPath };
  }
  const provider = deps.payments.forAttempt(attempt);
  if (!provider) return { status: "declined", message: "This payment method is not available.", checkoutPath };

  // Affirm's token in a return URL names the checkout it confirmed: a token of another checkout says nothing about this attempt.
  const affirmToken = returnParams.get(AFFIRM_TOKEN_PARAM);
  if (attempt.provider === "affirm" && affirmToken !== null && affirmToken !== attempt.reference) {
    return { status: "declined", message: AFFIRM_AUTHORIZATION_FAILED, checkoutPath };
  }

  // Only a live attempt of an unpaid checkout may take money where that is a step of ours (ADR 021).
  const claim = attempt.status === "abandoned" ? "cancelled" : await claimCollection(db, checkout.token, attempt.id);
  if (claim === "busy") return { status: "pending", checkoutPath };
  try {
    const verification = await askProvider(provider, attempt, returnParams, claim === "claimed");
    return await judge(deps, { attempt, checkout, checkoutPath, provider, claim }, verification);
  } finally {
    if (claim === "claimed") await releaseCollection(db, checkout.token, attempt.id);
  }
}

interface Confirmation {
  attempt: PaymentAttempt;
  checkout: Checkout;
  checkoutPath: string;
  provider: PaymentProvider;
  claim: CollectionClaim | "cancelled";
}

async function judge(deps: ServiceDeps, confirmation: Confirmation, verification: PaymentVerification): Promise<PaymentOutcome> {
  const { db } = deps;
  const { attempt, checkout, checkoutPath } = confirmation;
  switch (verification.status) {
    case "pending":
      return { status: "pending", checkoutPath };
    case "declined":
      await markAttemptDeclined(db, attempt.id, verification.message);
      return { status: "declined", message: verification.message, checkoutPath };
    case "uncollected":
      return notTaken(db, confirmation);
    case "approved":
      break;
  }
  if (
    verification.amountCents !== attempt.amountCents ||
    attempt.amountCents !== checkout.totalCents ||
    verification.currency.toUpperCase() !== PAYMENT_CURRENCY
  ) {
    logError(
      `Payment attempt ${attempt.id}: provider reported ${verification.amountCents} ${verification.currency}, expected ${checkout.totalCents}`,
    );
    await markAttemptDeclined(db, attempt.id, AMOUNT_MISMATCH_MESSAGE);
    return { status: "declined", message: AMOUNT_MISMATCH_MESSAGE, checkoutPath };
  }
  return recordApproved(deps, confirmation, verification);
}

/** Nothing was taken: the checkout was paid by another payment (its order is the shopper's), or this payment was cancelled. */
async function notTaken(db: Database, { attempt, checkout, checkoutPath, claim }: Confirmation): Promise<PaymentOutcome> {
  if (claim === "paid") await markAttemptAbandoned(db, attempt.id, NOT_TAKEN_MESSAGE);
  const order = await orderOfCheckout(db, checkout.token);
  if (order) return { status: "paid", order, kind: checkout.kind, chargedTwice: false };
  return { status: "declined", message: CANCELLED_PAYMENT_MESSAGE, checkoutPath };
}

async function recordApproved(
  deps: ServiceDeps,
  { attempt, checkout, checkoutPath, provider }: Confirmation,
  verification: Extract<PaymentVerification, { status: "approved" }>,
): Promise<PaymentOutcome> {
  const { db } = deps;
  const approved = { paymentId: verification.reference, authorizationExpiresAt: verification.authorizationExpiresAt ?? null };
  const recorded = await recordPaidCheckout(deps, checkout, {
    reference: verification.reference,
    method: attempt.method,
    provider: provider.id,
  });
  if (recorded.status === "promo-taken") {
    logError(`Payment attempt ${attempt.id}: ${checkout.promoCode} went to another checkout of this customer; giving the payment back`);
    await markAttemptApproved(db, attempt.id, { ...approved, refundReason: "discount-taken", message: DISCOUNT_TAKEN_MESSAGE });
    await giveBack(deps, { ...attempt, ...approved, status: "approved" }, checkout, DISCOUNT_TAKEN_MESSAGE, null);
    return { status: "declined", message: DISCOUNT_TAKEN_MESSAGE, checkoutPath };
  }
  if (recorded.status === "stock-gone") {
    logError(
      `Payment attempt ${attempt.id}: stock gone for checkout ${checkout.token} (${recorded.shortages.map((line) => line.productKey).join(", ")}); giving the payment back`,
    );
    stockOuts.inc({ at: "sale" }, recorded.shortages.length);
    await markAttemptApproved(db, attempt.id, { ...approved, refundReason: "stock-gone", message: STOCK_GONE_MESSAGE });
    await giveBack(deps, { ...attempt, ...approved, status: "approved" }, checkout, STOCK_GONE_MESSAGE, null);
    return { status: "declined", message: STOCK_GONE_MESSAGE, checkoutPath };
  }
  const { order } = recorded;
  if (order.paymentReference === verification.reference) {
    await markAttemptApproved(db, attempt.id, approved);
    if (recorded.status === "created") await sendOrderConfirmation(deps, order);
    return { status: "paid", order, kind: checkout.kind, chargedTwice: false };
  }
  // A second payment of a checkout already paid, taken by the provider on its own (a card, a hosted form): given back at once.
  logError(`Payment attempt ${attempt.id} paid checkout ${checkout.token} again; order ${order.orderId} already holds it`);
  const message = `Duplicate payment: order ${order.orderId} was already paid.`;
  await markAttemptApproved(db, attempt.id, { ...approved, refundReason: "duplicate", message });
  await giveBack(deps, { ...attempt, ...approved, status: "approved" }, checkout, CHARGED_TWICE_MESSAGE, order.orderId);
  return { status: "paid", order, kind: checkout.kind, chargedTwice: true };
}

/** Refunds a payment the store will not keep, at once, and tells the shopper; one whose refund fails stays listed for staff. */
async function giveBack(deps: ServiceDeps, attempt: PaymentAttempt, checkout: Checkout, notice: string, orderId: string | null) {
  const refund = await refundAttempt(deps, attempt, STORE_ACTOR);
  if (!refund.ok)
    logError(`Payment attempt ${attempt.id}: the automatic refund failed (${refund.message}); staff see it under Payments to settle`);
  await sendPaymentReturnedNotice(deps, {
    attemptId: attempt.id,
    amountCents: attempt.amountCents,
    customer: checkout.customer,
    notice,
    orderId,
  });
}

async function orderOfCheckout(db: Database, checkoutToken: string): Promise<Order | null> {
  const [order] = await db.select().from(orders).where(eq(orders.checkoutToken, checkoutToken));
  return order ?? null;
}

/** A provider that cannot be reached or answers garbage leaves the payment pending: nothing is recorded, the shopper can retry. */
async function askProvider(
  provider: PaymentProvider,
  attempt: PaymentAttempt,
  returnParams: URLSearchParams,
  collect: boolean,
): Promise<PaymentVerification> {
  const reference = attempt.reference ?? "";
  try {
    return await provider.verifyPayment({ attemptId: attempt.id, reference, amountCents: attempt.amountCents, returnParams, collect });
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Payment attempt ${attempt.id}: ${provider.id} could not verify the payment`, error);
    return { status: "pending", reference, message: error.message };
  }
}
