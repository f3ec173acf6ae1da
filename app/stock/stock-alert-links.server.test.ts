import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signNewsletterToken } from "~/mailing-list/newsletter-links.server";
import {
  signStockAlertToken,
  STOCK_ALERT_CONFIRM_TTL_MS,
  stockAlertConfirmUrl,
  stockAlertUnsubscribeUrl,
  verifyStockAlertToken,
} from "./stock-alert-links.server";

const SECRET = "a-session-secret-that-is-long-enough-0123";
const NOW = new Date("2026-11-23T12:00:00Z");
const ALERT = "0f8c2a4e-7b1d-4c3e-9a5f-1234567890ab";
const OTHER = "0f8c2a4e-7b1d-4c3e-9a5f-1234567890ac";

describe("stock alert link tokens", () => {
  it("verifies a token it signed, for its purpose and alert", () => {
    expect(verifyStockAlertToken(SECRET, "confirm", signStockAlertToken(SECRET, "confirm", ALERT, NOW), NOW)).toEqual({
      ok: true,
      alertId: ALERT,
    });
    expect(verifyStockAlertToken(SECRET, "unsubscribe", signStockAlertToken(SECRET, "unsubscribe", ALERT), NOW)).toEqual({
      ok: true,
      alertId: ALERT,
    });
    // An id written in capitals is signed as the database writes it.
    expect(verifyStockAlertToken(SECRET, "confirm", signStockAlertToken(SECRET, "confirm", ALERT.toUpperCase(), NOW), NOW)).toEqual({
      ok: true,
      alertId: ALERT,
    });
  });

  it("refuses a token used for the other purpose, another secret's, or a newsletter token", () => {
    expect(verifyStockAlertToken(SECRET, "unsubscribe", signStockAlertToken(SECRET, "confirm", ALERT, NOW), NOW).ok).toBe(false);
    expect(verifyStockAlertToken(SECRET, "confirm", signStockAlertToken(SECRET, "unsubscribe", ALERT), NOW).ok).toBe(false);
    const foreign = signStockAlertToken("another-secret-that-is-long-enough-99999", "confirm", ALERT, NOW);
    expect(verifyStockAlertToken(SECRET, "confirm", foreign, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyStockAlertToken(SECRET, "unsubscribe", signNewsletterToken(SECRET, "unsubscribe", 7), NOW).ok).toBe(false);
  });

  it("refuses a token whose alert, expiry or signature was changed", () => {
    const [letter, id, expires, signature] = signStockAlertToken(SECRET, "confirm", ALERT, NOW).split(".");
    expect(verifyStockAlertToken(SECRET, "confirm", [letter, OTHER, expires, signature].join("."), NOW).ok).toBe(false);
    expect(verifyStockAlertToken(SECRET, "confirm", [letter, id, String(Number(expires) + 1), signature].join("."), NOW).ok).toBe(false);
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`;
    expect(verifyStockAlertToken(SECRET, "confirm", [letter, id, expires, flipped].join("."), NOW).ok).toBe(false);
    expect(verifyStockAlertToken(SECRET, "confirm", [letter, id!.toUpperCase(), expires, signature].join("."), NOW).ok).toBe(false);
    const unsubscribe = signStockAlertToken(SECRET, "unsubscribe", ALERT).split(".");
    expect(verifyStockAlertToken(SECRET, "unsubscribe", [unsubscribe[0], unsubscribe[1], "99", unsubscribe[3]].join("."), NOW).ok).toBe(
      false,
    );
  });

  it("expires confirmation links after a week; unsubscribe links never", () => {
    const token = signStockAlertToken(SECRET, "confirm", ALERT, NOW);
    expect(verifyStockAlertToken(SECRET, "confirm", token, new Date(NOW.getTime() + STOCK_ALERT_CONFIRM_TTL_MS - 1000)).ok).toBe(true);
    expect(verifyStockAlertToken(SECRET, "confirm", token, new Date(NOW.getTime() + STOCK_ALERT_CONFIRM_TTL_MS + 1000))).toEqual({
      ok: false,
      reason: "expired",
    });
    const unsubscribe = signStockAlertToken(SECRET, "unsubscribe", ALERT, NOW);
    expect(verifyStockAlertToken(SECRET, "unsubscribe", unsubscribe, new Date("2036-01-01T00:00:00Z")).ok).toBe(true);
  });

  it("never throws and never accepts arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.uuid().map((id) => `c.${id}.0.${"A".repeat(43)}`),
          fc.anything(),
        ),
        (input) => {
          expect(verifyStockAlertToken(SECRET, "confirm", input, NOW).ok).toBe(false);
          expect(verifyStockAlertToken(SECRET, "unsubscribe", input, NOW).ok).toBe(false);
        },
      ),
    );
  });

  it("makes URL-safe tokens and links on the configured base URL", () => {
    const token = signStockAlertToken(SECRET, "confirm", ALERT, NOW);
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(stockAlertConfirmUrl("https://shop.example", token)).toBe(`https://shop.example/notify-me/confirm?token=${token}`);
    expect(stockAlertUnsubscribeUrl("https://shop.example", "u.x.0.y")).toBe("https://shop.example/notify-me/unsubscribe?token=u.x.0.y");
  });
});
