import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import { SESSION_IDLE_MS } from "./session-store.server";

export { SESSION_IDLE_MS, type Flash } from "./session-store.server";

export const SESSION_COOKIE_NAME = "staff_session";

/**
 * What the `staff_session` cookie carries: when signed in, only the
 * session's random token (`sid`; everything else lives in `staff_sessions`);
 * when signed out, only the sign-in form's CSRF token (`csrf`).
 */
export interface StaffCookie {
  sid: string | null;
  csrf: string | null;
}

/**
 * A signed (HMAC with the runtime's secret), httpOnly, SameSite=Lax cookie,
 * Secure over https (see shouldUseSecureCookies). Its Max-Age is the idle time and
 * is renewed on every guarded request; the server checks the row's last-seen
 * time too, so a cookie kept past its expiry is refused all the same.
 */
const staffCookie = signedCookie(SESSION_COOKIE_NAME, { maxAge: SESSION_IDLE_MS / 1000 });

const text = (value: unknown, max: number) => (typeof value === "string" && value.length > 0 && value.length <= max ? value : null);

/** The cookie's content; a forged, tampered or malformed cookie reads as empty, never as an error. */
export async function readStaffCookie(keys: CookieKeys, request: Request): Promise<StaffCookie> {
  const value = await staffCookie.parse(keys, request);
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return { sid: text(record.sid, 64), csrf: text(record.csrf, 128) };
}

/** Set-Cookie for a signed-in browser: the session token only. */
export function signedInCookie(keys: CookieKeys, request: Request, token: string): Promise<string> {
  return staffCookie.serialize(keys, request, { sid: token });
}

/** Set-Cookie for a signed-out browser on the sign-in page: the form's CSRF token only. */
export function signInFormCookie(keys: CookieKeys, request: Request, csrf: string): Promise<string> {
  return staffCookie.serialize(keys, request, { csrf });
}

/** Set-Cookie that removes the cookie. */
export function clearedStaffCookie(keys: CookieKeys, request: Request): Promise<string> {
  return staffCookie.serialize(keys, request, "", { maxAge: 0, expires: new Date(0) });
}
