import { createCookieSessionStorage, type Session, type SessionStorage } from "@remix-run/node";
import { cookieSecret, secureCookieFor } from "~/utils/cookies.server";

/** A session is signed out after this long without a guarded request. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_COOKIE_NAME = "staff_session";

export type Flash = { kind: "success" | "error"; message: string };

export interface StaffSessionData {
  staffId: string;
  email: string;
  /** Epoch milliseconds of the last guarded request: the idle clock. */
  lastSeen: number;
  /** The CSRF token every staff form carries back. */
  csrf: string;
}

export interface StaffSessionFlash {
  flash: Flash;
}

export type StaffSession = Session<StaffSessionData, StaffSessionFlash>;

/** The clock of the idle expiry, replaceable in tests. */
export const sessionClock = { now: (): number => Date.now() };

const storages = new Map<string, SessionStorage<StaffSessionData, StaffSessionFlash>>();

/**
 * The whole session lives in a signed (HMAC with the runtime's secret),
 * httpOnly, SameSite=Lax cookie. Its Max-Age is the idle time and is
 * renewed on every guarded request; the server also checks `lastSeen`, so
 * a cookie kept past its expiry is refused all the same.
 */
async function storage() {
  const sessionSecret = await cookieSecret();
  let existing = storages.get(sessionSecret);
  if (!existing) {
    existing = createCookieSessionStorage<StaffSessionData, StaffSessionFlash>({
      cookie: {
        name: SESSION_COOKIE_NAME,
        secrets: [sessionSecret],
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        maxAge: SESSION_IDLE_MS / 1000,
      },
    });
    storages.set(sessionSecret, existing);
  }
  return existing;
}

export async function getStaffSession(request: Request): Promise<StaffSession> {
  return (await storage()).getSession(request.headers.get("Cookie"));
}

/** Set-Cookie for the session; Secure when the request came over https (see shouldUseSecureCookies). */
export async function commitStaffSession(request: Request, session: StaffSession): Promise<string> {
  return (await storage()).commitSession(session, { secure: await secureCookieFor(request) });
}

export async function destroyStaffSession(request: Request, session: StaffSession): Promise<string> {
  return (await storage()).destroySession(session, { secure: await secureCookieFor(request) });
}

/** Whether a signed-in session has been idle too long. */
export function isIdleExpired(session: StaffSession, now = sessionClock.now()): boolean {
  const lastSeen = session.get("lastSeen");
  return typeof lastSeen !== "number" || now - lastSeen > SESSION_IDLE_MS;
}
