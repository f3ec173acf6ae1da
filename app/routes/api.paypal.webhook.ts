import { handlePayPalWebhook } from "~/payments/webhooks.server";
import { webhookAction } from "~/http/webhook-outcome.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/paypal/webhook: PayPal's events (CHECKOUT.ORDER.APPROVED,
 * PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.DENIED, ...), verified with
 * PayPal's verify-webhook-signature against PAYPAL_WEBHOOK_ID, at most as often
 * as RATE_LIMITS.paypalWebhookVerification allows (503 with Retry-After past
 * it). An event only makes the server ask PayPal about the order it names.
 */
export const action = webhookAction("PayPal", handlePayPalWebhook);

export const loader = methodNotAllowed;
