import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getCheckout } from "~/checkout/checkout.server";
import { publicBaseUrl } from "~/config.server";
import { startPayment } from "~/payments/start-payment.server";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { hitRateLimit, RATE_LIMITS } from "~/security/rate-limit.server";
import { tooManyRequests } from "~/utils/json-route.server";
import { isStripeConfigured } from "~/services/payments/stripe.server";
import { isCrossSiteRequest } from "~/utils/same-origin.server";

/** The spec's body is `{ amount }`; the amount is ignored: the server prices the pending checkout itself. */
const bodySchema = z.object({
  checkoutToken: z.string().trim().min(1).max(128),
  amount: z.unknown().optional(),
});

const json = (body: object, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * POST /api/stripe `{ checkoutToken }`: creates a Stripe PaymentIntent for the
 * pending checkout's server-computed total and answers its client secret,
 * which the card popup's Payment Element confirms. Same-origin only.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const { config, db } = context.store;
  if (isCrossSiteRequest(request, publicBaseUrl(config))) return json({ error: "Cross-site requests are not allowed." }, 403);
  if (!isStripeConfigured(config)) return json({ error: "Card payments with Stripe are not configured." }, 404);

  if (!/^application\/json\s*(?:;|$)/i.test(request.headers.get("Content-Type") ?? "")) return json({ error: "Send a JSON body." }, 415);
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return json({ error: "Send a JSON body with the checkoutToken of your checkout." }, 400);
  const checkout = await getCheckout(db, parsed.data.checkoutToken);
  if (!checkout) return json({ error: "Checkout not found. Please start the checkout again." }, 404);
  const limit = await hitRateLimit(db, RATE_LIMITS.paymentStart, context.clientAddress);
  if (!limit.allowed) return tooManyRequests(limit, PAYMENT_RATE_LIMITED_MESSAGE);

  const result = await startPayment(db, config, { checkout, method: "stripe", flow: "embedded" });
  switch (result.status) {
    case "started": {
      const { clientSecret, publishableKey, returnUrl } = result.payment.clientData ?? {};
      if (result.provider !== "stripe" || !clientSecret) return json({ error: "Card payments with Stripe are not configured." }, 404);
      return json({ clientSecret, publishableKey, attemptId: result.attemptId, returnUrl });
    }
    case "already-paid":
      return json({ error: "This checkout is already paid.", orderId: result.orderId }, 409);
    case "unavailable":
      return json({ error: "Card payments with Stripe are not configured." }, 404);
    case "promo-used":
      return json({ error: result.message }, 409);
    case "failed":
      return json({ error: result.message }, 502);
  }
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
