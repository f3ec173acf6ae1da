import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FormFields } from "~/utils/forms.server";
import type { StaffSession } from "./session.server";

/** The name of the hidden field every staff form carries. */
export const CSRF_FIELD = "csrf";

export function newCsrfToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The session's token, created (and then kept) on first use. The caller commits the session. */
export function ensureCsrfToken(session: StaffSession): string {
  let token = session.get("csrf");
  if (typeof token !== "string" || token.length < 32) {
    token = newCsrfToken();
    session.set("csrf", token);
  }
  return token;
}

/**
 * Whether the form carries the session's token: both present and equal,
 * compared in constant time. A missing session token never matches.
 */
export function verifyCsrf(session: StaffSession, form: FormFields): boolean {
  const expected = session.get("csrf");
  const sent = form[CSRF_FIELD];
  if (typeof expected !== "string" || expected.length === 0 || typeof sent !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
