import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RETURN_LINK_TTL_MS, returnLinkFor, signReturnToken, verifyReturnToken } from "./access.server";

const SECRET = "test-secret-that-is-long-enough-0123456789";
const now = new Date("2026-11-27T12:00:00Z");

describe("the return link of the shipped email", () => {
  it("opens the order's return page, for 60 days, for that order only", () => {
    const link = new URL(returnLinkFor(SECRET, "https://store.example", "abc-234-5678", now));
    expect(link.pathname).toBe("/order-status/ABC2345678/return");
    const token = link.searchParams.get("token");
    expect(verifyReturnToken(SECRET, "ABC2345678", token, now)).toEqual({ ok: true });
    expect(verifyReturnToken(SECRET, "ABC2345678", token, new Date(now.getTime() + RETURN_LINK_TTL_MS - 1000))).toEqual({ ok: true });
    expect(verifyReturnToken(SECRET, "ABC2345678", token, new Date(now.getTime() + RETURN_LINK_TTL_MS + 1000))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(verifyReturnToken(SECRET, "ABC2345679", token, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyReturnToken(`${SECRET}x`, "ABC2345678", token, now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("cannot be stretched: a later expiry breaks the signature", () => {
    const [expires, signature] = signReturnToken(SECRET, "ABC2345678", now).split(".");
    const stretched = `${Number(expires) + 365 * 24 * 3600}.${signature}`;
    expect(verifyReturnToken(SECRET, "ABC2345678", stretched, now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("never throws and never accepts whatever is sent", () => {
    fc.assert(
      fc.property(fc.anything(), (token) => {
        expect(verifyReturnToken(SECRET, "ABC2345678", token, now).ok).toBe(false);
      }),
      { seed: 41, numRuns: 500 },
    );
  });
});
