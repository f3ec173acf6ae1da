import { createSession } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { ensureCsrfToken, newCsrfToken, verifyCsrf } from "./csrf.server";
import type { StaffSession } from "./session.server";

const form = (values: Record<string, string>) => values;

describe("CSRF tokens", () => {
  it("are random, long and URL-safe", () => {
    const a = newCsrfToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newCsrfToken()).not.toBe(a);
  });

  it("are created once per session and then kept", () => {
    const session = createSession() as StaffSession;
    const token = ensureCsrfToken(session);
    expect(ensureCsrfToken(session)).toBe(token);
    expect(session.get("csrf")).toBe(token);
  });

  it("accept only the session's own token", () => {
    const session = createSession() as StaffSession;
    const token = ensureCsrfToken(session);
    expect(verifyCsrf(session, form({ csrf: token }))).toBe(true);
    expect(verifyCsrf(session, form({}))).toBe(false);
    expect(verifyCsrf(session, form({ csrf: "" }))).toBe(false);
    expect(verifyCsrf(session, form({ csrf: newCsrfToken() }))).toBe(false);
    expect(verifyCsrf(session, form({ csrf: token.slice(0, -1) }))).toBe(false);
    expect(verifyCsrf(session, form({ csrf: `${token}x` }))).toBe(false);
  });

  it("never match when the session has no token", () => {
    const session = createSession() as StaffSession;
    expect(verifyCsrf(session, form({ csrf: "" }))).toBe(false);
    expect(verifyCsrf(session, form({ csrf: "undefined" }))).toBe(false);
  });
});
