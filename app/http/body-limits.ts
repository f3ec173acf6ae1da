import { SHOPPER_FORM_MAX_BYTES } from "~/utils/forms.server";

/**
 * How large a request body the HTTP server lets through to the app, before
 * any route reads it: a Content-Length over the limit is refused with 413 at
 * once, and a body sent without one is counted as it streams and cut off at
 * the limit. Every form and JSON route reads less than this (readForm's
 * default is the same 64 KB); only Stripe's signed webhook events may be
 * bigger (Stripe sets no size, events with metadata run to tens of KB).
 */
export const REQUEST_BODY_MAX_BYTES = SHOPPER_FORM_MAX_BYTES;
const STRIPE_WEBHOOK_MAX_BYTES = 1024 * 1024;

export function bodyLimitFor(pathname: string): number {
  return pathname === "/api/stripe/webhook" ? STRIPE_WEBHOOK_MAX_BYTES : REQUEST_BODY_MAX_BYTES;
}
