import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The newsletter's signed links. A token names a mailing-list row and what
 * the link does (confirm or unsubscribe), signed with HMAC-SHA256 under a key
 * derived from the session secret, so only the store can make one and a
 * token for one row or purpose is worthless for another. Nothing is stored:
 * `confirm` tokens carry their expiry, `unsubscribe` tokens never expire
 * (an unsubscribe link must keep working, RFC 8058).
 *
 * Format: `{purpose letter}.{row id}.{expiry in seconds, or 0}.{signature}`,
 * all URL-safe.
 */

export type NewsletterLinkPurpose = "confirm" | "unsubscribe";

const PURPOSE_LETTER: Record<NewsletterLinkPurpose, string> = { confirm: "c", unsubscribe: "u" };

/** A confirmation link is good for a week; after that, signing up again sends a new one. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function keyFrom(secret: string): Buffer {
  // A key of its own, so a newsletter signature can never pass for a cookie signature or the other way round.
  return createHmac("sha256", secret).update("newsletter-links/v1").digest();
}

function signature(secret: string, payload: string): string {
  return createHmac("sha256", keyFrom(secret)).update(payload).digest("base64url");
}

export function signNewsletterToken(secret: string, purpose: NewsletterLinkPurpose, subscriberId: number, now: Date = new Date()): string {
  const expires = purpose === "confirm" ? Math.floor((now.getTime() + CONFIRM_LINK_TTL_MS) / 1000) : 0;
  const payload = `${PURPOSE_LETTER[purpose]}.${subscriberId}.${expires}`;
  return `${payload}.${signature(secret, payload)}`;
}

export type TokenCheck = { ok: true; subscriberId: number } | { ok: false; reason: "invalid" | "expired" };

const TOKEN = /^([cu])\.([1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/** Checks a token for the given purpose in constant time; never throws, whatever the input. */
export function verifyNewsletterToken(secret: string, purpose: NewsletterLinkPurpose, token: unknown, now: Date = new Date()): TokenCheck {
  if (typeof token !== "string" || token.length > 100) return { ok: false, reason: "invalid" };
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, letter, id, expires, given] = match;
  if (letter !== PURPOSE_LETTER[purpose]) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(signature(secret, `${letter}.${id}.${expires}`));
  const received = Buffer.from(given ?? "");
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return { ok: false, reason: "invalid" };
  if (purpose === "confirm" && Number(expires) * 1000 < now.getTime()) return { ok: false, reason: "expired" };
  if (purpose === "unsubscribe" && expires !== "0") return { ok: false, reason: "invalid" };
  const subscriberId = Number(id);
  return Number.isSafeInteger(subscriberId) && subscriberId <= 2_147_483_647
    ? { ok: true, subscriberId }
    : { ok: false, reason: "invalid" };
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
