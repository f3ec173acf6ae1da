import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmPaymentByReference } from "~/payments/confirm-payment.server";
import { paymentReferenceOfEvent, verifiedStripeEvent } from "~/services/payments/stripe.server";
import { logError } from "~/observability/logger.server";
import { webhookVerificationFailures } from "~/observability/metrics.server";
import { methodNotAllowed } from "~/utils/json-route.server";

const json = (body: object, status = 200) => Response.json(body, { status });

/**
 * POST /api/stripe/webhook: Stripe's events, signed with the endpoint secret
 * (STRIPE_WEBHOOK_SECRET) over the raw body. A succeeded PaymentIntent or a
 * completed Checkout Session records its order if the shopper never came back;
 * recording is idempotent, so replays and the return page add nothing. Any
 * other answer than 2xx makes Stripe retry: 503 while the database is down or
 * Stripe cannot be asked about the payment.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const rawBody = await request.text();
  const { config } = context.store;
  const secret = config.STRIPE_WEBHOOK_SECRET;
  if (!secret) return json({ error: "Stripe webhooks are not configured." }, 404);
  const event = await verifiedStripeEvent(rawBody, request.headers.get("Stripe-Signature"), secret);
  if (!event) {
    webhookVerificationFailures.inc({ provider: "stripe" });
    return json({ error: "Invalid signature." }, 400);
  }

  const reference = paymentReferenceOfEvent(event);
  if (!reference) return json({ received: true, handled: false });
  try {
    const outcome = await confirmPaymentByReference(context.store, "stripe", reference);
    // Pending: Stripe could not be asked to confirm its own event; a retry will.
    if (outcome.status === "pending") return json({ error: "Payment not verified yet." }, 503);
    return json({ received: true, handled: true, outcome: outcome.status });
  } catch (error) {
    logError(`Stripe webhook ${event.id} could not be recorded`, error);
    return json({ error: "Temporarily unavailable." }, 503);
  }
}

export const loader = methodNotAllowed;
