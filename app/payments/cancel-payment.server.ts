import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { isPaymentMethod } from "~/services/payments/types";
import { getAttempt, markAttemptAbandoned } from "./attempts.server";
import { confirmPayment } from "./confirm-payment.server";
import { paymentReturnPath } from "./paths";

/** The checkout page that says "Payment cancelled" (its cart and details unchanged). */
export function cancelledCheckoutPath(checkoutPath: string): string {
  return `${checkoutPath}${checkoutPath.includes("?") ? "&" : "?"}payment_cancelled=1`;
}

/**
 * A shopper came back from cancelling at a provider. The cancel URL proves
 * nothing, so the server asks the provider first: a payment that went through
 * after all goes to its return page (and becomes its order); otherwise the
 * attempt is marked abandoned (its promo code given back) and the shopper is
 * sent to the checkout, which says the payment was cancelled. A late payment
 * for an abandoned attempt still becomes its order (webhooks, the reconciler
 * for started ones, or the return page).
 */
export async function cancelPayment(db: Database, config: Config, checkoutToken: string, attemptId: string): Promise<string> {
  const checkout = await getCheckout(db, checkoutToken);
  if (!checkout) return "/cart";
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  const attempt = await getAttempt(db, attemptId);
  const method = attempt?.method;
  if (!attempt || attempt.checkoutToken !== checkout.token || !isPaymentMethod(method)) return cancelledCheckoutPath(checkoutPath);
  const returnPath = paymentReturnPath(method, checkout.token, attempt.id);
  if (attempt.status === "approved") return returnPath;
  if (attempt.status !== "started") return cancelledCheckoutPath(checkoutPath);
  const outcome = await confirmPayment(db, config, { method, checkoutToken: checkout.token, attemptId: attempt.id });
  if (outcome.status === "paid") return returnPath;
  await markAttemptAbandoned(db, attempt.id, "Cancelled by the shopper.");
  return cancelledCheckoutPath(checkoutPath);
}
