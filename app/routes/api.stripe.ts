import { z } from "zod";
import { getCheckout } from "~/checkout/checkout.server";
import { startPayment } from "~/payments/start-payment.server";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed, tooManyRequests } from "~/utils/json-route.server";
import { isStripeConfigured } from "~/services/payments/stripe.server";

/** The spec's body is `{ amount }`; the amount is ignored: the server prices the pending checkout itself. */
const bodySchema = z.object({
  checkoutToken: z.string().trim().min(1).max(128),
  amount: z.unknown().optional(),
});

const NOT_CONFIGURED = "Card payments with Stripe are not configured.";

/**
 * POST /api/stripe `{ checkoutToken }`: creates a Stripe PaymentIntent for the
 * pending checkout's server-computed total and answers its client secret,
 * which the card popup's Payment Element confirms. Same-origin only.
 */
export const action = jsonAction(bodySchema, async ({ context, payload }) => {
  const { config, db } = context.store;
  if (!isStripeConfigured(config)) return jsonError(404, NOT_CONFIGURED);
  const checkout = await getCheckout(db, payload.checkoutToken);
  if (!checkout) return jsonError(404, "Checkout not found. Please start the checkout again.");
  const limit = await context.store.rateLimiter.hit(RATE_LIMITS.paymentStart, context.clientAddress);
  if (!limit.allowed) return tooManyRequests(limit, PAYMENT_RATE_LIMITED_MESSAGE);

  const result = await startPayment(context.store, { checkout, method: "stripe", flow: "embedded" });
  switch (result.status) {
    case "started": {
      const { clientSecret, publishableKey, returnUrl } = result.payment.clientData ?? {};
      if (result.provider !== "stripe" || !clientSecret) return jsonError(404, NOT_CONFIGURED);
      return jsonResponse({ clientSecret, publishableKey, attemptId: result.attemptId, returnUrl });
    }
    case "already-paid":
      return jsonError(409, "This checkout is already paid.", { orderId: result.orderId });
    case "unavailable":
      return jsonError(404, NOT_CONFIGURED);
    case "promo-used":
    case "repriced":
      return jsonError(409, result.message);
    case "tax-failed":
      return jsonError(503, result.message);
    case "out-of-stock":
    case "product-unavailable":
      return jsonError(409, result.message);
    case "failed":
      return jsonError(502, result.message);
  }
});

export const loader = methodNotAllowed;
