import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { publicBaseUrl, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import type { CheckoutKind } from "~/db/schema";
import { sendOrderConfirmation } from "~/orders/order-email.server";
import { recordPaidCheckout, type Order } from "~/orders/orders.server";
import { AFFIRM_AUTHORIZATION_FAILED, AFFIRM_TOKEN_PARAM } from "~/services/payments/affirm.server";
import { paymentProviderFor, testPaymentsEnabled } from "~/services/payments/index.server";
import {
  PAYMENT_CURRENCY,
  PaymentError,
  type PaymentMethod,
  type PaymentProvider,
  type PaymentVerification,
} from "~/services/payments/types";
import { findAttemptByReference, getAttempt, setAttemptStatus, type PaymentAttempt } from "./attempts.server";
import { logError } from "~/http/logger.server";

export const PAYMENT_FAILED_FALLBACK = "An unexpected error occurred.";
export const AMOUNT_MISMATCH_MESSAGE = "The amount paid does not match the order total.";

export type PaymentOutcome =
  | { status: "paid"; order: Order; kind: CheckoutKind }
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
 * retries; only a newly recorded order sends the confirmation email.
 */
export async function confirmPayment(
  db: Database,
  config: Config,
  input: { method: PaymentMethod; checkoutToken: string; attemptId: string; returnParams?: URLSearchParams },
): Promise<PaymentOutcome> {
  const attempt = await getAttempt(db, input.attemptId);
  if (!attempt || attempt.checkoutToken !== input.checkoutToken || attempt.method !== input.method) return { status: "unknown" };
  return confirmAttempt(db, config, attempt, input.returnParams ?? new URLSearchParams());
}

/** The same, for a provider that only tells us its own payment id (webhooks). */
export async function confirmPaymentByReference(
  db: Database,
  config: Config,
  provider: PaymentProvider["id"],
  reference: string,
  hints: URLSearchParams = new URLSearchParams(),
): Promise<PaymentOutcome> {
  const attempt = await findAttemptByReference(db, provider, reference);
  return attempt ? confirmAttempt(db, config, attempt, hints) : { status: "unknown" };
}

/** The same, for an attempt the server itself decided to ask about again (the reconciler). */
export async function reconfirmAttempt(db: Database, config: Config, attempt: PaymentAttempt): Promise<PaymentOutcome> {
  return confirmAttempt(db, config, attempt, new URLSearchParams());
}

async function confirmAttempt(
  db: Database,
  config: Config,
  attempt: PaymentAttempt,
  returnParams: URLSearchParams,
): Promise<PaymentOutcome> {
  const checkout = await getCheckout(db, attempt.checkoutToken);
  if (!checkout || !attempt.reference) return { status: "unknown" };
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  const provider = providerForAttempt(db, config, attempt);
  if (!provider) return { status: "declined", message: "This payment method is not available.", checkoutPath };

  // Affirm's token in a return URL names the checkout it confirmed: a token of another checkout says nothing about this attempt.
  const affirmToken = returnParams.get(AFFIRM_TOKEN_PARAM);
  if (attempt.provider === "affirm" && affirmToken !== null && affirmToken !== attempt.reference) {
    return { status: "declined", message: AFFIRM_AUTHORIZATION_FAILED, checkoutPath };
  }

  const verification = await askProvider(provider, attempt, returnParams);
  if (verification.status === "declined") {
    await setAttemptStatus(db, attempt.id, "declined", verification.message);
    return { status: "declined", message: verification.message, checkoutPath };
  }
  if (verification.status === "pending") return { status: "pending", checkoutPath };
  if (
    verification.amountCents !== attempt.amountCents ||
    attempt.amountCents !== checkout.totalCents ||
    verification.currency.toUpperCase() !== PAYMENT_CURRENCY
  ) {
    logError(
      `Payment attempt ${attempt.id}: provider reported ${verification.amountCents} ${verification.currency}, expected ${checkout.totalCents}`,
    );
    await setAttemptStatus(db, attempt.id, "declined", AMOUNT_MISMATCH_MESSAGE);
    return { status: "declined", message: AMOUNT_MISMATCH_MESSAGE, checkoutPath };
  }

  const { order, created } = await recordPaidCheckout(db, checkout, {
    reference: verification.reference,
    method: attempt.method,
    provider: provider.id,
  });
  if (order.paymentReference === verification.reference) {
    await setAttemptStatus(db, attempt.id, "approved");
  } else {
    // A second payment for a checkout that is already an order: kept approved and flagged so staff can refund it.
    logError(`Payment attempt ${attempt.id} paid checkout ${checkout.token} again; order ${order.orderId} already holds it`);
    await setAttemptStatus(db, attempt.id, "approved", `Duplicate payment: order ${order.orderId} was already paid. Refund this payment.`);
  }
  if (created) await sendOrderConfirmation(db, order, publicBaseUrl(config));
  return { status: "paid", order, kind: checkout.kind };
}

/** The provider that must verify this attempt: the one that started it, and the test page only while test payments are on. */
export function providerForAttempt(db: Database, config: Config, attempt: PaymentAttempt): PaymentProvider | null {
  if (attempt.provider === "test" && !testPaymentsEnabled(config)) return null;
  const provider = paymentProviderFor(db, config, attempt.method as PaymentMethod);
  return provider && provider.id === attempt.provider ? provider : null;
}

/** A provider that cannot be reached or answers garbage leaves the payment pending: nothing is recorded, the shopper can retry. */
async function askProvider(
  provider: PaymentProvider,
  attempt: PaymentAttempt,
  returnParams: URLSearchParams,
): Promise<PaymentVerification> {
  const reference = attempt.reference ?? "";
  try {
    return await provider.verifyPayment({ attemptId: attempt.id, reference, amountCents: attempt.amountCents, returnParams });
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Payment attempt ${attempt.id}: ${provider.id} could not verify the payment`, error);
    return { status: "pending", reference, message: error.message };
  }
}
