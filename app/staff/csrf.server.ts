import { timingSafeEqual } from "node:crypto";
import type { FormFields } from "~/utils/forms.server";

export { newCsrfToken } from "./session-store.server";

/** The name of the hidden field every staff form carries. */
export const CSRF_FIELD = "csrf";

/**
 * Whether the form carries the expected token (the session row's, or the
 * sign-in cookie's): both present and equal, compared in constant time.
 * A missing expected token never matches.
 */
export function verifyCsrf(expected: string | null | undefined, form: FormFields): boolean {
  const sent = form[CSRF_FIELD];
  if (typeof expected !== "string" || expected.length === 0 || typeof sent !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
