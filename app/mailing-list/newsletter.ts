import { safeRedirectPath } from "~/utils/redirect";

/**
 * The newsletter form's rules and words, shared by the action and the two
 * forms (footer, popup). Client-safe: no server imports.
 */

export const NEWSLETTER_SOURCES = ["footer", "popup"] as const;
export type NewsletterSource = (typeof NEWSLETTER_SOURCES)[number];

export type NewsletterStatus = "subscribed" | "invalid" | "duplicate" | "failed";

export const PROMO_CODE = "LOVERUB10";

/** Name of the newsletter forms' honeypot: hidden from people, filled in by naive bots, whose sign-up is then dropped silently. */
export const NEWSLETTER_HONEYPOT_FIELD = "newsletter_homepage";

/**
 * Said under the spec's thank-you text: with double opt-in the address is
 * subscribed only once its owner opens the link we emailed.
 */
export const NEWSLETTER_CONFIRM_HINT = "Confirm your subscription: we emailed you a link.";

export const NEWSLETTER_MESSAGES = {
  invalid: {
    popup: "Please enter a valid email address.",
    footer: "Please enter a valid email address",
  },
  duplicate: "This email is already registered.",
  failed: "Failed to subscribe. Please try again.",
  subscribed: {
    footer: "Thank you for joining our mailing list",
    popup: "Thank you for subscribing!",
  },
} as const;

export function newsletterMessage(status: NewsletterStatus, source: NewsletterSource): string {
  switch (status) {
    case "invalid":
      return NEWSLETTER_MESSAGES.invalid[source];
    case "duplicate":
      return NEWSLETTER_MESSAGES.duplicate;
    case "failed":
      return NEWSLETTER_MESSAGES.failed;
    case "subscribed":
      return NEWSLETTER_MESSAGES.subscribed[source];
  }
}

/** What the action answers (fetcher) and what a redirect carries back (no script). */
export interface NewsletterResult {
  source: NewsletterSource;
  status: NewsletterStatus;
  message: string;
  /** The typed value, kept on errors so it can be corrected; empty after success. */
  email: string;
}

export function newsletterResult(status: NewsletterStatus, source: NewsletterSource, email: string): NewsletterResult {
  return { source, status, message: newsletterMessage(status, source), email: status === "subscribed" ? "" : email };
}

/* ---- carrying the result back through a redirect (no script) ---- */

export const NEWSLETTER_QUERY = { status: "newsletter", source: "newsletter_source", email: "newsletter_email" } as const;
/** Where the no-script redirect lands, so the browser scrolls to the form that answered. */
export const NEWSLETTER_ANCHOR: Record<NewsletterSource, string> = { footer: "newsletter", popup: "newsletter-popup" };

const NEWSLETTER_STATUSES: readonly NewsletterStatus[] = ["subscribed", "invalid", "duplicate", "failed"];

function isStatus(value: unknown): value is NewsletterStatus {
  return NEWSLETTER_STATUSES.includes(value as NewsletterStatus);
}

/** The result a no-script redirect put in the query, for the given form; null when there is none. */
export function newsletterResultFromSearch(search: string, source: NewsletterSource): NewsletterResult | null {
  const params = new URLSearchParams(search);
  const status = params.get(NEWSLETTER_QUERY.status);
  if (!isStatus(status)) return null;
  const formSource = params.get(NEWSLETTER_QUERY.source) ?? "footer";
  if (formSource !== source) return null;
  return newsletterResult(status, source, (params.get(NEWSLETTER_QUERY.email) ?? "").slice(0, 500));
}

/** The page to go back to, carrying the result in the query (and the email only when it must be corrected). */
export function newsletterRedirectTarget(redirectTo: unknown, result: NewsletterResult): string {
  const path = safeRedirectPath(redirectTo);
  const url = new URL(path, "http://same-site.invalid");
  for (const key of Object.values(NEWSLETTER_QUERY)) url.searchParams.delete(key);
  url.searchParams.set(NEWSLETTER_QUERY.status, result.status);
  url.searchParams.set(NEWSLETTER_QUERY.source, result.source);
  if (result.status !== "subscribed" && result.email) url.searchParams.set(NEWSLETTER_QUERY.email, result.email);
  return `${url.pathname}${url.search}#${NEWSLETTER_ANCHOR[result.source]}`;
}

/** The current page without the newsletter flags: the redirectTo a form posts. */
export function currentPathWithoutNewsletterFlags(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of Object.values(NEWSLETTER_QUERY)) params.delete(key);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
