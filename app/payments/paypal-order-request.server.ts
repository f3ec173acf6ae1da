import { z } from "zod";
import { getCheckout } from "~/checkout/checkout.server";
import { publicBaseUrl, type Config } from "~/config.server";
import { startPayment } from "~/payments/start-payment.server";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";

/** What the PayPal buttons' createOrder sends: only which checkout to pay; the amount is the server's. */
const orderRequest = z.object({ checkoutToken: z.string().trim().min(1).max(200) });

export type PayPalOrderAnswer = {
  status: number;
  body: { orderId: string; attemptId: string } | { error: string; orderId?: string };
  /** With status 429: when another payment may be started. */
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
 * Creates the PayPal order for a pending checkout (the JSON route behind the
 * PayPal buttons' createOrder): same-origin requests only, the checkout's own
 * server-computed total, and a clear 4xx for anything a client can get wrong.
 */
export async function createPayPalOrderFor(
  store: Pick<StoreRuntime, "db" | "jobs" | "config" | "rateLimiter" | "taxService" | "payments">,
  request: Request,
  clientAddress: string,
): Promise<PayPalOrderAnswer> {
  const { db, config, rateLimiter } = store;
  if (!isSameOrigin(request, config)) return { status: 403, body: { error: PAYPAL_ORDER_ERRORS.crossOrigin } };
  const parsed = orderRequest.safeParse(await readJson(request));
  if (!parsed.success) return { status: 400, body: { error: PAYPAL_ORDER_ERRORS.badRequest } };

  const checkout = await getCheckout(db, parsed.data.checkoutToken);
  if (!checkout) return { status: 404, body: { error: PAYPAL_ORDER_ERRORS.unknownCheckout } };
  if (store.payments.forMethod("paypal")?.id !== "paypal") return { status: 503, body: { error: PAYPAL_ORDER_ERRORS.unavailable } };
  const limit = await rateLimiter.hit(RATE_LIMITS.paymentStart, clientAddress);
  if (!limit.allowed) return { status: 429, body: { error: PAYMENT_RATE_LIMITED_MESSAGE }, retryAfterMs: limit.retryAfterMs };

  const result = await startPayment(store, { checkout, method: "paypal" });
  switch (result.status) {
    case "started": {
      const orderId = result.payment.clientData?.orderId ?? result.payment.reference;
      return { status: 200, body: { orderId, attemptId: result.attemptId } };
    }
    case "already-paid":
      return { status: 409, body: { error: PAYPAL_ORDER_ERRORS.alreadyPaid, orderId: result.orderId } };
    case "unavailable":
      return { status: 503, body: { error: PAYPAL_ORDER_ERRORS.unavailable } };
    case "promo-used":
    case "repriced":
      return { status: 409, body: { error: result.message } };
    case "tax-failed":
      return { status: 503, body: { error: result.message } };
    case "out-of-stock":
    case "product-unavailable":
      return { status: 409, body: { error: result.message } };
    case "failed":
      return { status: 502, body: { error: PAYPAL_ORDER_ERRORS.failed } };
  }
}

/** A browser's fetch always sends Origin on POST: it must be this store (its request origin or its public address). */
function isSameOrigin(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(publicBaseUrl(config)).origin;
}

async function readJson(request: Request): Promise<unknown> {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) return undefined;
  try {
    return JSON.parse((await request.text()).slice(0, 10_000));
  } catch {
    return undefined;
  }
}
