import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed email links (the newsletter's, "Notify me"'s): a token names a row and what the link does
 * (confirm or unsubscribe), signed with HMAC-SHA256 under a key derived from the session secret and the
 * kind's own label, so only the store can make one, and a token of one kind, row or purpose is worthless
 * for another (or as a cookie signature). Nothing is stored: `confirm` tokens carry their expiry,
 * `unsubscribe` tokens never expire (an unsubscribe link must keep working, RFC 8058).
 *
 * Format: `{purpose letter}.{row id}.{expiry in seconds, or 0}.{signature}`, all URL-safe.
 */

export type LinkPurpose = "confirm" | "unsubscribe";

export type LinkCheck = { ok: true; id: string } | { ok: false; reason: "invalid" | "expired" };

const PURPOSE_LETTER: Record<LinkPurpose, string> = { confirm: "c", unsubscribe: "u" };

export interface SignedLinks {
  sign(secret: string, purpose: LinkPurpose, id: string, now?: Date): string;
  /** Checks a token for the given purpose in constant time; never throws, whatever the input. */
  verify(secret: string, purpose: LinkPurpose, token: unknown, now?: Date): LinkCheck;
}

/**
 * One kind of signed link: `label` names its key (e.g. "newsletter-links/v1"), `idPattern` the ids it
 * carries (a regular expression source, anchored here), `confirmTtlMs` how long a confirm link lasts,
 * `maxLength` the longest token worth parsing.
 */
export function signedLinks(kind: { label: string; idPattern: string; confirmTtlMs: number; maxLength: number }): SignedLinks {
  const token = new RegExp(`^([cu])\\.(${kind.idPattern})\\.(0|[1-9][0-9]{0,11})\\.([A-Za-z0-9_-]{43})$`);
  const signature = (secret: string, payload: string) =>
    createHmac("sha256", createHmac("sha256", secret).update(kind.label).digest()).update(payload).digest("base64url");
  return {
    sign(secret, purpose, id, now = new Date()) {
      const expires = purpose === "confirm" ? Math.floor((now.getTime() + kind.confirmTtlMs) / 1000) : 0;
      const payload = `${PURPOSE_LETTER[purpose]}.${id}.${expires}`;
      return `${payload}.${signature(secret, payload)}`;
    },
    verify(secret, purpose, given, now = new Date()) {
      if (typeof given !== "string" || given.length > kind.maxLength) return { ok: false, reason: "invalid" };
      const match = token.exec(given);
      if (!match) return { ok: false, reason: "invalid" };
      const [, letter, id, expires, received] = match;
      if (letter !== PURPOSE_LETTER[purpose] || id === undefined) return { ok: false, reason: "invalid" };
      const expected = Buffer.from(signature(secret, `${letter}.${id}.${expires}`));
      const actual = Buffer.from(received ?? "");
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false, reason: "invalid" };
      if (purpose === "unsubscribe" && expires !== "0") return { ok: false, reason: "invalid" };
      if (purpose === "confirm" && Number(expires) * 1000 < now.getTime()) return { ok: false, reason: "expired" };
      return { ok: true, id };
    },
  };
}
