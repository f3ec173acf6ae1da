import { handleStripeWebhook } from "~/payments/webhooks.server";
import { webhookAction } from "~/http/webhook-outcome.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/stripe/webhook: Stripe's events (payment_intent.succeeded, checkout.session.completed), signed
 * with STRIPE_WEBHOOK_SECRET; any other answer than 2xx makes Stripe retry: 503 while the database is down
 * or Stripe cannot be asked about the payment.
 */
export const action = webhookAction("Stripe", handleStripeWebhook);

export const loader = methodNotAllowed;
