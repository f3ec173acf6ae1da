import { z } from "zod";
import { getCheckout } from "~/checkout/checkout.server";
import { publicBaseUrl, type Config } from "~/config.server";
import { startPayment } from "~/payments/start-payment.server";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { Refusal } from "~/http/refusals";
import type { StoreRuntime } from "~/store-runtime";

/** What the PayPal buttons' createOrder sends: only which checkout to pay; the amount is the server's. */
export const PAYPAL_ORDER_REQUEST = z.object({ checkoutToken: z.string().trim().min(1).max(200) });

export type PayPalOrderOutcome =
  | { ok: true; orderId: string; attemptId: string }
  | {
      ok: false;
      refusal: Refusal;
      error: string;
      /** With a checkout paid already: its order. */
      orderId?: string;
      /** With rate-limited: when another payment may be started. */
      retryAfterMs?: number;
    };

export const PAYPAL_ORDER_ERRORS = {
  crossOrigin: "Requests must come from the store's own pages.",
  badRequest: 'Send JSON like {"checkoutToken":"..."}.',
  unknownCheckout: "Checkout not found.",
  alreadyPaid: "This checkout has already been paid.",
  unavailable: "PayPal is not available right now.",
  failed: "An unexpected error occurred.",
} as const;

/**
 * Creates the PayPal order for a pending checkout (what the PayPal buttons' createOrder asks the JSON route
 * for): the checkout's own server-computed total, counted against the shopper's payment starts.
 */
export async function createPayPalOrderFor(
  store: Pick<StoreRuntime, "db" | "jobs" | "config" | "rateLimiter" | "taxService" | "payments">,
  checkoutToken: string,
  clientAddress: string,
): Promise<PayPalOrderOutcome> {
  const refused = (refusal: Refusal, error: string, extra: { orderId?: string; retryAfterMs?: number } = {}) =>
    ({ ok: false, refusal, error, ...extra }) as const;
  const checkout = await getCheckout(store.db, checkoutToken);
  if (!checkout) return refused("not-found", PAYPAL_ORDER_ERRORS.unknownCheckout);
  if (store.payments.forMethod("paypal")?.id !== "paypal") return refused("unavailable", PAYPAL_ORDER_ERRORS.unavailable);
  const limit = await store.rateLimiter.hit(RATE_LIMITS.paymentStart, clientAddress);
  if (!limit.allowed) return refused("rate-limited", PAYMENT_RATE_LIMITED_MESSAGE, { retryAfterMs: limit.retryAfterMs });

  const result = await startPayment(store, { checkout, method: "paypal" });
  switch (result.status) {
    case "started":
      return { ok: true, orderId: result.payment.clientData?.orderId ?? result.payment.reference, attemptId: result.attemptId };
    case "already-paid":
      return refused("conflict", PAYPAL_ORDER_ERRORS.alreadyPaid, { orderId: result.orderId });
    case "unavailable":
      return refused("unavailable", PAYPAL_ORDER_ERRORS.unavailable);
    case "tax-failed":
      return refused("unavailable", result.message);
    case "promo-used":
    case "repriced":
    case "out-of-stock":
    case "product-unavailable":
      return refused("conflict", result.message);
    case "failed":
      return refused("provider-refused", PAYPAL_ORDER_ERRORS.failed);
  }
}

/** A browser's fetch always sends Origin on POST: it must be this store (its request origin or its public address). */
export function isSameOrigin(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(publicBaseUrl(config)).origin;
}
