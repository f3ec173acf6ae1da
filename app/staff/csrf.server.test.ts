import { describe, expect, it } from "vitest";
import { newCsrfToken, verifyCsrf } from "./csrf.server";

const form = (values: Record<string, string>) => values;

describe("CSRF tokens", () => {
  it("are random, long and URL-safe", () => {
    const a = newCsrfToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newCsrfToken()).not.toBe(a);
  });

  it("accept only the expected token", () => {
    const token = newCsrfToken();
    expect(verifyCsrf(token, form({ csrf: token }))).toBe(true);
    expect(verifyCsrf(token, form({}))).toBe(false);
    expect(verifyCsrf(token, form({ csrf: "" }))).toBe(false);
    expect(verifyCsrf(token, form({ csrf: newCsrfToken() }))).toBe(false);
    expect(verifyCsrf(token, form({ csrf: token.slice(0, -1) }))).toBe(false);
    expect(verifyCsrf(token, form({ csrf: `${token}x` }))).toBe(false);
  });

  it("never match when there is no expected token", () => {
    for (const expected of [null, undefined, ""]) {
      expect(verifyCsrf(expected, form({ csrf: "" }))).toBe(false);
      expect(verifyCsrf(expected, form({ csrf: "undefined" }))).toBe(false);
      expect(verifyCsrf(expected, form({ csrf: "null" }))).toBe(false);
    }
  });
});
