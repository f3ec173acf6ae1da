import { signedLinks, type LinkPurpose } from "~/security/signed-links.server";

/**
 * The newsletter's signed links (`app/security/signed-links.server.ts`): a token names a mailing-list
 * row (its number) and what the link does, under a key of its own, so a newsletter signature can never
 * pass for a cookie's or a "Notify me" link's.
 */

export type NewsletterLinkPurpose = LinkPurpose;

/** A confirmation link is good for a week; after that, signing up again sends a new one. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const links = signedLinks({
  label: "newsletter-links/v1",
  idPattern: "[1-9][0-9]{0,9}",
  confirmTtlMs: CONFIRM_LINK_TTL_MS,
  maxLength: 100,
});

export function signNewsletterToken(secret: string, purpose: NewsletterLinkPurpose, subscriberId: number, now: Date = new Date()): string {
  return links.sign(secret, purpose, String(subscriberId), now);
}

export type TokenCheck = { ok: true; subscriberId: number } | { ok: false; reason: "invalid" | "expired" };

/** Checks a token for the given purpose in constant time; never throws, whatever the input. */
export function verifyNewsletterToken(secret: string, purpose: NewsletterLinkPurpose, token: unknown, now: Date = new Date()): TokenCheck {
  const check = links.verify(secret, purpose, token, now);
  if (!check.ok) return check;
  const subscriberId = Number(check.id);
  return subscriberId <= 2_147_483_647 ? { ok: true, subscriberId } : { ok: false, reason: "invalid" };
}

export function newsletterConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

export function newsletterUnsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/**
 * The headers every newsletter mail carries: `List-Unsubscribe` with the
 * signed link, and `List-Unsubscribe-Post` so mail programs can unsubscribe
 * with one click (an RFC 8058 POST to the same link).
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
