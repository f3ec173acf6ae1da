import { redirect } from "@remix-run/node";
import type { Database } from "~/db/database.server";
import { safeRedirectPath } from "~/utils/redirect";
import { findStaffById, type StaffUser } from "./accounts.server";
import { ensureCsrfToken } from "./csrf.server";
import { commitStaffSession, destroyStaffSession, getStaffSession, isIdleExpired, sessionClock, type StaffSession } from "./session.server";

export interface StaffContext {
  staff: StaffUser;
  session: StaffSession;
  csrf: string;
  /** Set-Cookie for the (rolled) session: send it with the response. */
  commit(): Promise<string>;
}

/** /login?redirectTo=… for this request's path: where to come back to after signing in. */
export function loginPathFor(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const back = safeRedirectPath(`${url.pathname}${url.search}`, "/dashboard");
  return `/login?${new URLSearchParams({ redirectTo: back })}`;
}

/**
 * The guard of every staff loader and action: the signed-in staff member,
 * or a redirect to /login (and back here afterwards). A session idle for
 * more than 12 hours, or whose account no longer exists, is signed out.
 * Passing renews the idle clock; the caller sends `commit()` as Set-Cookie.
 */
export async function requireStaff(db: Database, request: Request): Promise<StaffContext> {
  const session = await getStaffSession(request);
  const staffId = session.get("staffId");
  const now = sessionClock.now();
  const staff = typeof staffId === "string" && !isIdleExpired(session, now) ? await findStaffById(db, staffId) : null;
  if (!staff) {
    const headers = new Headers();
    if (staffId !== undefined) headers.append("Set-Cookie", await destroyStaffSession(request, session));
    throw redirect(loginPathFor(request), { status: 303, headers });
  }
  session.set("lastSeen", now);
  session.set("email", staff.email);
  const csrf = ensureCsrfToken(session);
  return { staff, session, csrf, commit: () => commitStaffSession(request, session) };
}

/** The signed-in staff member, if any, without redirecting (for /login). */
export async function currentStaff(db: Database, request: Request): Promise<StaffUser | null> {
  const session = await getStaffSession(request);
  const staffId = session.get("staffId");
  if (typeof staffId !== "string" || isIdleExpired(session)) return null;
  return findStaffById(db, staffId);
}
