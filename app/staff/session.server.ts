import { createCookie, type Cookie } from "@remix-run/node";
import { cookieSecret, secureCookieFor } from "~/utils/cookies.server";
import { SESSION_IDLE_MS } from "./session-store.server";

export { SESSION_IDLE_MS, sessionClock, type Flash } from "./session-store.server";

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

const cookies = new Map<string, Cookie>();

/**
 * A signed (HMAC with the runtime's secret), httpOnly, SameSite=Lax cookie,
 * Secure over https (see secureCookieFor). Its Max-Age is the idle time and
 * is renewed on every guarded request; the server checks the row's last-seen
 * time too, so a cookie kept past its expiry is refused all the same.
 */
async function cookie(): Promise<Cookie> {
  const secret = await cookieSecret();
  let existing = cookies.get(secret);
  if (!existing) {
    existing = createCookie(SESSION_COOKIE_NAME, {
      secrets: [secret],
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: SESSION_IDLE_MS / 1000,
    });
    cookies.set(secret, existing);
  }
  return existing;
}

const text = (value: unknown, max: number) => (typeof value === "string" && value.length > 0 && value.length <= max ? value : null);

/** The cookie's content; a forged, tampered or malformed cookie reads as empty, never as an error. */
export async function readStaffCookie(request: Request): Promise<StaffCookie> {
  let value: unknown = null;
  try {
    value = await (await cookie()).parse(request.headers.get("Cookie"));
  } catch {
    value = null;
  }
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return { sid: text(record.sid, 64), csrf: text(record.csrf, 128) };
}

/** Set-Cookie for a signed-in browser: the session token only. */
export async function signedInCookie(request: Request, token: string): Promise<string> {
  return (await cookie()).serialize({ sid: token }, { secure: await secureCookieFor(request) });
}

/** Set-Cookie for a signed-out browser on the sign-in page: the form's CSRF token only. */
export async function signInFormCookie(request: Request, csrf: string): Promise<string> {
  return (await cookie()).serialize({ csrf }, { secure: await secureCookieFor(request) });
}

/** Set-Cookie that removes the cookie. */
export async function clearedStaffCookie(request: Request): Promise<string> {
  return (await cookie()).serialize("", { secure: await secureCookieFor(request), maxAge: 0, expires: new Date(0) });
}
