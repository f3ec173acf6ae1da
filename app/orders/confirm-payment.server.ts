import type { Database } from "~/db/database.server";
import type { CheckoutKind } from "~/db/schema";
import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { paymentProviderFor } from "~/services/payments/index.server";
import type { PaymentMethod } from "~/services/payments/types";
import { sendOrderConfirmation } from "./order-email.server";
import { recordPaidCheckout, type Order } from "./orders.server";

export const PAYMENT_FAILED_FALLBACK = "An unexpected error occurred.";

export type PaymentOutcome =
  | { status: "paid"; order: Order; kind: CheckoutKind }
  | { status: "declined"; message: string; checkoutPath: string }
  | { status: "pending"; checkoutPath: string }
  | { status: "unknown" };

/**
 * Called when a shopper comes back from paying. The server asks the provider
 * what happened to the payment; only an approved payment for the checkout's
 * full total becomes an order (once, whatever the number of visits), and
 * only a newly recorded order sends the confirmation email.
 */
export async function confirmPayment(
  db: Database,
  { method, checkoutToken, reference, origin }: { method: PaymentMethod; checkoutToken: string; reference: string; origin: string },
): Promise<PaymentOutcome> {
  const checkout = await getCheckout(db, checkoutToken);
  if (!checkout) return { status: "unknown" };
  const verification = await paymentProviderFor(db, method).verifyPayment(reference);
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  if (verification.status === "declined") return { status: "declined", message: verification.message, checkoutPath };
  if (verification.status === "pending") return { status: "pending", checkoutPath };
  if (verification.amountCents !== checkout.totalCents) {
    return { status: "declined", message: "The amount paid does not match the order total.", checkoutPath };
  }
  const { order, created } = await recordPaidCheckout(db, checkout, { reference: verification.reference, method });
  if (created) await sendOrderConfirmation(order, origin);
  return { status: "paid", order, kind: checkout.kind };
}
