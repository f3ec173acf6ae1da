import type { ServiceDeps } from "~/store-runtime";
import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { logError } from "~/observability/logger.server";
import { isPaymentMethod, PaymentError } from "~/services/payments/types";
import { getAttempt, markAttemptAbandoned, type PaymentAttempt } from "./attempts.server";
import { confirmPayment } from "./confirm-payment.server";
import { paymentReturnPath } from "./paths";

/** The checkout page that says "Payment cancelled" (its cart and details unchanged). */
export function cancelledCheckoutPath(checkoutPath: string): string {
  return `${checkoutPath}${checkoutPath.includes("?") ? "&" : "?"}payment_cancelled=1`;
}

/**
 * A shopper came back from cancelling at a provider. The cancel URL proves
 * nothing, so the server asks the provider first: a payment that went
 * through after all goes to its return page (and becomes its order);
 * otherwise the payment is closed at the provider (Stripe's session expires,
 * so it cannot be paid later), the attempt is marked abandoned (its promo
 * code given back) and the shopper is sent to the checkout, which says the
 * payment was cancelled.
 * Money that still arrives for it becomes the order only while the checkout
 * is unpaid and its discount still its own; otherwise it is refunded at once.
 */
export async function cancelPayment(deps: ServiceDeps, checkoutToken: string, attemptId: string): Promise<string> {
  const { db } = deps;
  const checkout = await getCheckout(db, checkoutToken);
  if (!checkout) return "/cart";
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  const attempt = await getAttempt(db, attemptId);
  const method = attempt?.method;
  if (!attempt || attempt.checkoutToken !== checkout.token || !isPaymentMethod(method)) return cancelledCheckoutPath(checkoutPath);
  const returnPath = paymentReturnPath(method, checkout.token, attempt.id);
  if (attempt.status === "approved") return returnPath;
  if (attempt.status !== "started") return cancelledCheckoutPath(checkoutPath);
  const outcome = await confirmPayment(deps, { method, checkoutToken: checkout.token, attemptId: attempt.id });
  if (outcome.status === "paid") return returnPath;
  await closeAtProvider(deps, attempt);
  await markAttemptAbandoned(db, attempt.id, "Cancelled by the shopper.");
  return cancelledCheckoutPath(checkoutPath);
}

async function closeAtProvider(deps: ServiceDeps, attempt: PaymentAttempt): Promise<void> {
  const provider = deps.payments.forAttempt(attempt);
  if (!provider?.cancelPayment || !attempt.reference) return;
  try {
    await provider.cancelPayment({ attemptId: attempt.id, reference: attempt.reference });
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    // The shopper still gets "Payment cancelled"; should the money arrive after all, confirmation judges it.
    logError(`Payment attempt ${attempt.id}: ${attempt.provider} could not close the payment`, error);
  }
}
