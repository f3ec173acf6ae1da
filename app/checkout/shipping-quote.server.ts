import { RATE_LIMITS, type RateLimiter } from "~/security/rate-limit.server";
import type { QuoteRequest, ShippingQuote, ShippingRates } from "~/services/shipping/types";
import { logError } from "~/observability/logger.server";

/** Spec section 8: shown when no carrier rate could be had; shipping is then 0 and payment waits for a rate. */
export const SHIPPING_FAILED_MESSAGE = "Failed to calculate shipping cost. Please try again.";

/** Carrier quotes per client address, shared by the seasoning checkout page and `POST /api/calculate-shipping`. */
export const SHIPPING_QUOTE_RATE_LIMIT = RATE_LIMITS.shippingQuote.limit;

/** Shown on the checkout page when the address has asked for too many quotes. */
export const SHIPPING_RATE_LIMITED_MESSAGE = "Too many shipping quotes from your connection. Please wait a minute and try again.";

export type CarrierQuoteOutcome =
  { status: "quoted"; quote: ShippingQuote } | { status: "failed" } | { status: "rate-limited"; retryAfterMs: number };

/**
 * The carrier's rate for a parcel, counted against the visitor's limit. A
 * carrier failure is logged and answered as "failed", never thrown: the
 * page then shows SHIPPING_FAILED_MESSAGE with shipping 0.
 */
export async function quoteCarrierShipping(
  rateLimiter: RateLimiter,
  clientAddress: string,
  quoteRequest: QuoteRequest,
  rates: ShippingRates,
): Promise<CarrierQuoteOutcome> {
  const limit = await rateLimiter.hit(RATE_LIMITS.shippingQuote, clientAddress);
  if (!limit.allowed) return { status: "rate-limited", retryAfterMs: limit.retryAfterMs };
  try {
    return { status: "quoted", quote: await rates.quote(quoteRequest) };
  } catch (error) {
    logError("Shipping quote failed", error);
    return { status: "failed" };
  }
}
