import { createHmac, timingSafeEqual } from "node:crypto";
import { normalizeOrderId } from "~/orders/order-id";
import { RATE_LIMITS, type RateLimiter } from "~/security/rate-limit.server";
import { signedCookie, type CookieKeys } from "~/utils/cookies.server";

/**
 * Who may open a return or a defect claim: whoever proves the order is theirs, by the email address
 * used at checkout or by the signed link of the shipped email. The Order ID alone shows the status
 * and nothing more (it is printed on packing slips and forwarded emails).
 *
 * - The email is compared without case. A wrong one gets one answer, "does not match", whatever is
 *   wrong, and counts against two budgets: the client address's and the order's (RATE_LIMITS
 *   returnProofAddress, returnProofOrder). Once either is spent, no address is checked at all, right
 *   or wrong, until the window ends: guessing a customer's email is slow from one address, and from
 *   many addresses against one order.
 * - The signed link (`returnLinkFor`) carries the order id and an expiry, HMAC-SHA256 under a key
 *   derived from the session secret, good for 60 days (longer than the 30-day return window counted
 *   from delivery, which follows shipping by days).
 * - Proof is then kept for 30 minutes in a signed, httpOnly, SameSite=Lax cookie (`order_proof`), so the
 *   plain HTML forms that follow need no token in the page. It names the order and the proof it came
 *   from, and holds only while that proof would: a digest of the checkout email it matched (no longer
 *   proof if the order's email is not that one), or the link's own expiry.
 */

export const RETURN_LINK_TTL_MS = 60 * 24 * 60 * 60 * 1000;
export const PROOF_TTL_SECONDS = 30 * 60;

function linkKey(secret: string): Buffer {
  // A key of its own, so a return link can never pass for a cookie or newsletter signature.
  return createHmac("sha256", secret).update("return-links/v1").digest();
}

function linkSignature(secret: string, orderId: string, expires: number): string {
  return createHmac("sha256", linkKey(secret)).update(`${orderId}.${expires}`).digest("base64url");
}

/** The token of a return link: `{expiry in seconds}.{signature}`. */
export function signReturnToken(secret: string, orderId: string, now: Date = new Date()): string {
  const expires = Math.floor((now.getTime() + RETURN_LINK_TTL_MS) / 1000);
  return `${expires}.${linkSignature(secret, normalizeOrderId(orderId), expires)}`;
}

export type ReturnTokenCheck = { ok: true } | { ok: false; reason: "invalid" | "expired" };

const TOKEN = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/** Checks a return link's token for an order in constant time; never throws, whatever the input. */
export function verifyReturnToken(secret: string, orderId: string, token: unknown, now: Date = new Date()): ReturnTokenCheck {
  if (typeof token !== "string" || token.length > 80) return { ok: false, reason: "invalid" };
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const expires = Number(match[1]);
  const expected = Buffer.from(linkSignature(secret, normalizeOrderId(orderId), expires));
  const received = Buffer.from(match[2] ?? "");
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return { ok: false, reason: "invalid" };
  return expires * 1000 < now.getTime() ? { ok: false, reason: "expired" } : { ok: true };
}

/**
 * The signed link for the shipped email: it opens the order's return page with the order already
 * proven. `sessionSecret` is the runtime's (context.store.sessionSecret); `baseUrl` PUBLIC_BASE_URL.
 */
export function returnLinkFor(sessionSecret: string, baseUrl: string, orderId: string, now: Date = new Date()): string {
  const id = normalizeOrderId(orderId);
  return `${baseUrl}/order-status/${encodeURIComponent(id)}/return?token=${encodeURIComponent(signReturnToken(sessionSecret, id, now))}`;
}

const proofCookie = signedCookie("order_proof", { maxAge: PROOF_TTL_SECONDS, path: "/order-status" });

/** How a browser proved an order: the checkout email it gave, or the signed link (its token). */
export type Proof = { via: "email"; email: string } | { via: "link"; token: string };

/** The order as a proof is checked against. */
interface ProvenOrder {
  orderId: string;
  customer: { email: string };
}

/** What the cookie keeps of a proof: a digest of the email (never the email), or the link token's expiry. */
function proofMark(keys: CookieKeys, orderId: string, proof: Proof): string {
  if (proof.via === "link") return `link:${TOKEN.exec(proof.token)?.[1] ?? "0"}`;
  const digest = createHmac("sha256", linkKey(keys.sessionSecret))
    .update(`proof.${orderId}.${proof.email.trim().toLowerCase()}`)
    .digest("base64url");
  return `email:${digest}`;
}

/** Whether this browser has proven, within the last 30 minutes and by a proof that still holds, that the order is its own. */
export async function hasProof(keys: CookieKeys, request: Request, order: ProvenOrder): Promise<boolean> {
  const value = await proofCookie.parse(keys, request);
  if (!value || typeof value !== "object") return false;
  const { order: named, until, mark } = value as { order?: unknown; until?: unknown; mark?: unknown };
  const orderId = normalizeOrderId(order.orderId);
  if (named !== orderId || typeof until !== "number" || until <= Date.now() || typeof mark !== "string") return false;
  if (mark.startsWith("link:")) return Number(mark.slice(5)) * 1000 > Date.now();
  return mark === proofMark(keys, orderId, { via: "email", email: order.customer.email });
}

export function proofCookieHeader(keys: CookieKeys, request: Request, orderId: string, proof: Proof): Promise<string> {
  const id = normalizeOrderId(orderId);
  return proofCookie.serialize(keys, request, {
    order: id,
    until: Date.now() + PROOF_TTL_SECONDS * 1000,
    mark: proofMark(keys, id, proof),
  });
}

export const PROOF_MESSAGES = {
  linkSent:
    "We have emailed a link to the address used at checkout. Open it to continue: it confirms the order is yours and works for 60 days.",
  linkRateLimited:
    "We have already emailed this order's link several times in the last hour. Please use the newest one, or try again later.",
  emailRequired: "Please enter the email address you used at checkout.",
  noMatch: "That email address does not match this order. Please use the address you gave at checkout.",
  rateLimited:
    "Too many email addresses tried for this order or from your connection. Please wait 15 minutes, or choose Email me a link: we send it to the address used at checkout.",
  linkExpired: "That link has expired. Please enter the email address you used at checkout instead.",
  linkInvalid: "That link is not valid. Please enter the email address you used at checkout instead.",
  proofRequired: "Please confirm the email address you used at checkout first: the Order ID alone shows only the order's status.",
} as const;

export type EmailProof = { status: "proven" } | { status: "no-match" } | { status: "rate-limited"; retryAfterMs: number };

async function budgetSpent(rateLimiter: RateLimiter, clientAddress: string, orderId: string): Promise<number | null> {
  const rules = [
    [RATE_LIMITS.returnProofAddress, clientAddress],
    [RATE_LIMITS.returnProofOrder, orderId],
  ] as const;
  for (const [rule, subject] of rules) {
    const next = await rateLimiter.check(rule, subject);
    if (!next.allowed) return next.retryAfterMs;
  }
  return null;
}

/** Checks the email address given for an order against the one used at checkout, within the two budgets of wrong guesses. */
export async function proveByEmail(
  rateLimiter: RateLimiter,
  input: { orderId: string; customerEmail: string | null; email: string; clientAddress: string },
): Promise<EmailProof> {
  const orderId = normalizeOrderId(input.orderId);
  const spent = await budgetSpent(rateLimiter, input.clientAddress, orderId);
  if (spent !== null) return { status: "rate-limited", retryAfterMs: spent };
  const given = input.email.trim().toLowerCase();
  if (input.customerEmail !== null && given.length > 0 && given === input.customerEmail.trim().toLowerCase()) return { status: "proven" };
  const byAddress = await rateLimiter.hit(RATE_LIMITS.returnProofAddress, input.clientAddress);
  const byOrder = await rateLimiter.hit(RATE_LIMITS.returnProofOrder, orderId);
  if (!byAddress.allowed || !byOrder.allowed) {
    return { status: "rate-limited", retryAfterMs: Math.max(byAddress.retryAfterMs, byOrder.retryAfterMs) };
  }
  return { status: "no-match" };
}
