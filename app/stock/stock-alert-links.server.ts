import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The signed links of "Notify me when available" (`stock_alerts`), as the newsletter's: a token names an
 * alert row (its uuid) and what the link does (confirm or unsubscribe), signed with HMAC-SHA256 under a
 * key of its own derived from the session secret, so only the store can make one, and a token for one
 * row or purpose (or a newsletter token) is worthless for another. Nothing is stored: `confirm` tokens
 * carry their expiry, `unsubscribe` tokens never expire (RFC 8058).
 *
 * Format: `{purpose letter}.{alert uuid}.{expiry in seconds, or 0}.{signature}`, all URL-safe.
 */

export type StockAlertLinkPurpose = "confirm" | "unsubscribe";

const PURPOSE_LETTER: Record<StockAlertLinkPurpose, string> = { confirm: "c", unsubscribe: "u" };

/** A confirmation link is good for a week; after that, asking again sends a new one. */
export const STOCK_ALERT_CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function keyFrom(secret: string): Buffer {
  return createHmac("sha256", secret).update("stock-alert-links/v1").digest();
}

function signature(secret: string, payload: string): string {
  return createHmac("sha256", keyFrom(secret)).update(payload).digest("base64url");
}

export function signStockAlertToken(secret: string, purpose: StockAlertLinkPurpose, alertId: string, now: Date = new Date()): string {
  const expires = purpose === "confirm" ? Math.floor((now.getTime() + STOCK_ALERT_CONFIRM_TTL_MS) / 1000) : 0;
  const payload = `${PURPOSE_LETTER[purpose]}.${alertId.toLowerCase()}.${expires}`;
  return `${payload}.${signature(secret, payload)}`;
}

export type StockAlertTokenCheck = { ok: true; alertId: string } | { ok: false; reason: "invalid" | "expired" };

const TOKEN = /^([cu])\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(0|[1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/** Checks a token for the given purpose in constant time; never throws, whatever the input. */
export function verifyStockAlertToken(
  secret: string,
  purpose: StockAlertLinkPurpose,
  token: unknown,
  now: Date = new Date(),
): StockAlertTokenCheck {
  if (typeof token !== "string" || token.length > 120) return { ok: false, reason: "invalid" };
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, letter, id, expires, given] = match;
  if (letter !== PURPOSE_LETTER[purpose] || id === undefined) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(signature(secret, `${letter}.${id}.${expires}`));
  const received = Buffer.from(given ?? "");
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return { ok: false, reason: "invalid" };
  if (purpose === "unsubscribe" && expires !== "0") return { ok: false, reason: "invalid" };
  if (purpose === "confirm" && Number(expires) * 1000 < now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, alertId: id };
}

export function stockAlertConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notify-me/confirm?token=${encodeURIComponent(token)}`;
}

export function stockAlertUnsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notify-me/unsubscribe?token=${encodeURIComponent(token)}`;
}
