import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePayPalWebhook } from "~/payments/webhooks.server";
import { logError } from "~/observability/logger.server";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/paypal/webhook: PayPal's events (CHECKOUT.ORDER.APPROVED,
 * PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.DENIED, ...), verified with
 * PayPal's verify-webhook-signature against PAYPAL_WEBHOOK_ID, at most as often
 * as RATE_LIMITS.paypalWebhookVerification allows (503 with Retry-After past
 * it). An event only makes the server ask PayPal about the order it names.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const rawBody = await request.text();
  try {
    const { status, body, retryAfterMs } = await handlePayPalWebhook(context.store, request.headers, rawBody);
    const headers = retryAfterMs === undefined ? undefined : { "Retry-After": String(retryAfterSeconds(retryAfterMs)) };
    return Response.json(body, { status, headers });
  } catch (error) {
    logError("PayPal webhook could not be handled", error);
    return Response.json({ error: "Temporarily unavailable." }, { status: 503 });
  }
}

export const loader = methodNotAllowed;
