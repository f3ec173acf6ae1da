/**
 * What a shopper reads when the server's rate limit refuses a request.
 * Client-safe (no server imports): pages show these texts too.
 */

/** The checkout page, after /payments/start (or a provider's JSON route) refused to start another payment. */
export const PAYMENT_RATE_LIMITED_MESSAGE = "Too many payment attempts from your connection. Please wait a few minutes and try again.";

/** The order lookup, after too many lookups from one connection. */
export const ORDER_LOOKUP_RATE_LIMITED_MESSAGE = "Too many order lookups from your connection. Please wait a few minutes and try again.";

/** The checkout pages, after too many checkouts were recorded for one connection. */
export const CHECKOUT_RATE_LIMITED_MESSAGE = "Too many checkouts from your connection. Please wait a few minutes and try again.";

/** The single-product checkout's tax calculations, past their limit. */
export const TAX_RATE_LIMITED_MESSAGE = "Too many tax calculations from your connection. Please wait a minute and try again.";
