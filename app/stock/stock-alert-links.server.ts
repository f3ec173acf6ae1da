import { signedLinks, type LinkPurpose } from "~/security/signed-links.server";

/**
 * The signed links of "Notify me when available" (`app/security/signed-links.server.ts`): a token names an
 * alert row (its uuid) and what the link does, under a key of its own, so a newsletter token is worthless here.
 */

export type StockAlertLinkPurpose = LinkPurpose;

/** A confirmation link is good for a week; after that, asking again sends a new one. */
export const STOCK_ALERT_CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const links = signedLinks({
  label: "stock-alert-links/v1",
  idPattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
  confirmTtlMs: STOCK_ALERT_CONFIRM_TTL_MS,
  maxLength: 120,
});

export function signStockAlertToken(secret: string, purpose: StockAlertLinkPurpose, alertId: string, now: Date = new Date()): string {
  return links.sign(secret, purpose, alertId.toLowerCase(), now);
}

export type StockAlertTokenCheck = { ok: true; alertId: string } | { ok: false; reason: "invalid" | "expired" };

/** Checks a token for the given purpose in constant time; never throws, whatever the input. */
export function verifyStockAlertToken(
  secret: string,
  purpose: StockAlertLinkPurpose,
  token: unknown,
  now: Date = new Date(),
): StockAlertTokenCheck {
  const check = links.verify(secret, purpose, token, now);
  return check.ok ? { ok: true, alertId: check.id } : check;
}

export function stockAlertConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notify-me/confirm?token=${encodeURIComponent(token)}`;
}

export function stockAlertUnsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/notify-me/unsubscribe?token=${encodeURIComponent(token)}`;
}
