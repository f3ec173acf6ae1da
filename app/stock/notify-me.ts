/**
 * "Notify me when available": the answers of POST /notify-me and their fixed words, shared by the action
 * and the product page's form (client-safe, tiny: it is part of the product page's first-load script).
 * A no-script post comes back to the product page with one of these codes in `?notify=`; the page shows
 * the code's own text, never anything else from the query.
 */

export const NOTIFY_ME_STATUSES = ["sent", "invalid", "available", "unknown", "rate-limited", "failed"] as const;
export type NotifyMeStatus = (typeof NOTIFY_ME_STATUSES)[number];

/** The form's honeypot: hidden from people, filled in by naive bots, whose request is answered and dropped. */
export const NOTIFY_ME_HONEYPOT_FIELD = "notify_homepage";

export const NOTIFY_ME_MESSAGES: Record<NotifyMeStatus, string> = {
  sent: "Check your inbox and confirm: we will email you once when it is back.",
  invalid: "Please enter a valid email address.",
  available: "It is in stock: you can order it now.",
  unknown: "There is no such product.",
  "rate-limited": "Too many requests. Please try again in a few minutes.",
  failed: "Sorry, that did not work. Please try again.",
};

/** The `notify` code of a page's query string, or null when it holds none we know. */
export function notifyMeStatus(search: string): NotifyMeStatus | null {
  const status = new URLSearchParams(search).get("notify") as NotifyMeStatus;
  return NOTIFY_ME_STATUSES.includes(status) ? status : null;
}

/** Where a no-script post lands: the product's page with the answer's code, scrolled to the form. */
export function notifyMeRedirectTarget(productKey: string, status: NotifyMeStatus): string {
  return `/product/${encodeURIComponent(productKey)}?notify=${status}#notify-me`;
}
