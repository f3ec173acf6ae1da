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

/** Provider webhooks: signed events that may carry more than a shopper's form (an EasyPost tracker carries its whole history). */
const WEBHOOK_PATHS = new Set(["/api/stripe/webhook", "/api/paypal/webhook", "/api/authorizenet/webhook", "/api/easypost/webhook"]);

/** What the app's request body stream fails with when the body grows past its limit while streaming (the server has answered 413). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * The customer's return request and defect claim carry photos (app/returns/upload-form.server.ts):
 * three of 5 MB and the fields. Only these two paths, POSTed as forms, get the larger limit.
 */
export const AFTER_SALE_UPLOAD_MAX_BYTES = 16 * 1024 * 1024;
const AFTER_SALE_UPLOAD_PATH = /^\/order-status\/[A-Za-z0-9-]{1,40}\/(return|claim)$/;

/**
 * The staff desks' CSV uploads, stock counts and catalogue prices (app/utils/csv-upload.server.ts reads at
 * most 1 MB and its fields). The server lets a little more through, so a file somewhat over 1 MB gets the
 * page's own message; a 50 MB upload is refused here at once.
 */
export const CSV_IMPORT_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
const CSV_IMPORT_PATH = /^\/(stock|catalog)\/import\/?$/i;

export function bodyLimitFor(pathname: string): number {
  if (AFTER_SALE_UPLOAD_PATH.test(pathname)) return AFTER_SALE_UPLOAD_MAX_BYTES;
  if (CSV_IMPORT_PATH.test(pathname)) return CSV_IMPORT_UPLOAD_MAX_BYTES;
  return WEBHOOK_PATHS.has(pathname) ? STRIPE_WEBHOOK_MAX_BYTES : REQUEST_BODY_MAX_BYTES;
}

/** The routes that answer JSON (section 7's endpoints and the provider webhooks), whose refusals are JSON too. */
const JSON_ROUTE_PATHS = new Set(["/newPurchase", "/contactForm", "/generate-text"]);

export function isJsonRoute(pathname: string): boolean {
  return pathname.startsWith("/api/") || JSON_ROUTE_PATHS.has(pathname);
}

/** The 413 answer for a body over `limit`: `{ error }` on a JSON route, a line of text elsewhere. */
export function oversizeAnswer(pathname: string, limit: number): { contentType: string; body: string } {
  const message = `Payload Too Large: request bodies are limited to ${Math.floor(limit / 1024)} KB.`;
  return isJsonRoute(pathname)
    ? { contentType: "application/json; charset=utf-8", body: JSON.stringify({ error: message }) }
    : { contentType: "text/plain; charset=utf-8", body: `${message}\n` };
}

/**
 * A browser's form post a little over the limit (a long message pasted into
 * the contact form) is still read, up to this much, so the route can answer
 * with the store's own 413 page instead of a bare refusal and a reset
 * connection; anything larger, or not from a page, is refused at once.
 */
export const PAGE_BODY_DRAIN_MAX_BYTES = 1024 * 1024;

/** Whether a request over its limit gets the store's 413 page (read, within PAGE_BODY_DRAIN_MAX_BYTES) rather than a bare 413. */
export function answersOversizeWithPage(declared: number | null, limit: number, accept: string | undefined): boolean {
  return declared !== null && declared > limit && declared <= PAGE_BODY_DRAIN_MAX_BYTES && (accept ?? "").includes("text/html");
}
