import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONFIRM_LINK_TTL_MS,
  listUnsubscribeHeaders,
  newsletterConfirmUrl,
  newsletterUnsubscribeUrl,
  signNewsletterToken,
  verifyNewsletterToken,
} from "./newsletter-links.server";

const SECRET = "a-session-secret-that-is-long-enough-0123";
const NOW = new Date("2026-11-23T12:00:00Z");

describe("newsletter link tokens", () => {
  it("verifies a token it signed, for its purpose and row", () => {
    const confirm = signNewsletterToken(SECRET, "confirm", 42, NOW);
    expect(verifyNewsletterToken(SECRET, "confirm", confirm, NOW)).toEqual({ ok: true, subscriberId: 42 });
    const unsubscribe = signNewsletterToken(SECRET, "unsubscribe", 7);
    expect(verifyNewsletterToken(SECRET, "unsubscribe", unsubscribe, NOW)).toEqual({ ok: true, subscriberId: 7 });
  });

  it("refuses a token used for the other purpose", () => {
    expect(verifyNewsletterToken(SECRET, "unsubscribe", signNewsletterToken(SECRET, "confirm", 1, NOW), NOW).ok).toBe(false);
    expect(verifyNewsletterToken(SECRET, "confirm", signNewsletterToken(SECRET, "unsubscribe", 1), NOW).ok).toBe(false);
  });

  it("refuses a token signed with another secret", () => {
    const token = signNewsletterToken("another-secret-that-is-long-enough-99999", "confirm", 1, NOW);
    expect(verifyNewsletterToken(SECRET, "confirm", token, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a token whose row id, expiry or signature was changed", () => {
    const token = signNewsletterToken(SECRET, "confirm", 5, NOW);
    const [letter, id, expires, signature] = token.split(".");
    expect(verifyNewsletterToken(SECRET, "confirm", [letter, "6", expires, signature].join("."), NOW).ok).toBe(false);
    expect(verifyNewsletterToken(SECRET, "confirm", [letter, id, String(Number(expires) + 1), signature].join("."), NOW).ok).toBe(false);
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`;
    expect(verifyNewsletterToken(SECRET, "confirm", [letter, id, expires, flipped].join("."), NOW).ok).toBe(false);
    // An unsubscribe token cannot be given an expiry, nor a confirm token none.
    const unsubscribe = signNewsletterToken(SECRET, "unsubscribe", 5).split(".");
    expect(verifyNewsletterToken(SECRET, "unsubscribe", [unsubscribe[0], unsubscribe[1], "99", unsubscribe[3]].join("."), NOW).ok).toBe(
      false,
    );
  });

  it("expires confirmation links after a week; unsubscribe links never", () => {
    const token = signNewsletterToken(SECRET, "confirm", 3, NOW);
    const justBefore = new Date(NOW.getTime() + CONFIRM_LINK_TTL_MS - 1000);
    const after = new Date(NOW.getTime() + CONFIRM_LINK_TTL_MS + 1000);
    expect(verifyNewsletterToken(SECRET, "confirm", token, justBefore).ok).toBe(true);
    expect(verifyNewsletterToken(SECRET, "confirm", token, after)).toEqual({ ok: false, reason: "expired" });
    const unsubscribe = signNewsletterToken(SECRET, "unsubscribe", 3, NOW);
    expect(verifyNewsletterToken(SECRET, "unsubscribe", unsubscribe, new Date("2036-01-01T00:00:00Z")).ok).toBe(true);
  });

  it("never throws and never accepts arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.anything()), (input) => {
        expect(verifyNewsletterToken(SECRET, "confirm", input, NOW).ok).toBe(false);
        expect(verifyNewsletterToken(SECRET, "unsubscribe", input, NOW).ok).toBe(false);
      }),
    );
  });

  it("makes URL-safe tokens and links on the configured base URL", () => {
    const token = signNewsletterToken(SECRET, "confirm", 12, NOW);
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(newsletterConfirmUrl("https://shop.example", token)).toBe(`https://shop.example/newsletter/confirm?token=${token}`);
    expect(newsletterUnsubscribeUrl("https://shop.example", "u.1.0.x")).toBe("https://shop.example/newsletter/unsubscribe?token=u.1.0.x");
  });

  it("gives the one-click List-Unsubscribe headers", () => {
    expect(listUnsubscribeHeaders("https://shop.example/newsletter/unsubscribe?token=t")).toEqual({
      "List-Unsubscribe": "<https://shop.example/newsletter/unsubscribe?token=t>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });
});
