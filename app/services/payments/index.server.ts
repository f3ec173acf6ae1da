import type { Database } from "~/db/database.server";
import { createTestPaymentProvider } from "./test-payments.server";
import type { PaymentMethod, PaymentProvider } from "./types";

/**
 * The provider for a payment method. Every method uses the offline test
 * payment page until its provider's driver and keys are added (the real
 * Stripe, PayPal and Affirm drivers come with the payment-providers issue).
 */
export function paymentProviderFor(db: Database, method: PaymentMethod): PaymentProvider {
  return createTestPaymentProvider(db, method);
}

/** True while every method goes to the offline test payment page. */
export function paymentsInTestMode(): boolean {
  return true;
}
