import { redirect } from "@remix-run/node";
import type { StoreRuntime } from "~/store-runtime";
import { safeRedirectPath } from "~/utils/redirect";
import { OWNER_ONLY, mayDo, type OwnerOnlyAction } from "./roles";
import type { StaffUser } from "./staff-user";
import { clearedStaffCookie, readStaffCookie, signedInCookie } from "./session.server";
import { findActiveStaffSession, revokeStaffSession, setStaffSessionFlash, touchStaffSession, type Flash } from "./session-store.server";

export interface StaffContext {
  staff: StaffUser;
  /** The session's CSRF token: every staff form carries it back. */
  csrf: string;
  /** The one-time message set by the previous request (already used up). */
  flash: Flash | null;
  /** Set-Cookie for the renewed session: send it with the response. */
  commit(): Promise<string>;
  /** A message for the next page (after a redirect). */
  setFlash(flash: Flash): Promise<void>;
  /** Ends this session (sign-out); the caller sends clearedStaffCookie(). */
  revoke(): Promise<void>;
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
 * or a redirect to /login (and back here afterwards). The cookie's token
 * must name a session row that is not revoked, was seen within 12 hours and
 * whose account still exists. Passing renews the idle clock; the caller
 * sends `commit()` as Set-Cookie.
 */
export async function requireStaff(store: StoreRuntime, request: Request): Promise<StaffContext> {
  const { db } = store;
  const { sid } = await readStaffCookie(store, request);
  const now = store.clock.now();
  const session = sid ? await findActiveStaffSession(db, sid, now) : null;
  if (!sid || !session) {
    const headers = new Headers();
    if (sid) headers.append("Set-Cookie", await clearedStaffCookie(store, request));
    throw redirect(loginPathFor(request), { status: 303, headers });
  }
  await touchStaffSession(db, session.id, now);
  return {
    staff: session.staff,
    csrf: session.csrf,
    flash: session.flash,
    commit: () => signedInCookie(store, request, sid),
    setFlash: (flash) => setStaffSessionFlash(db, session.id, flash),
    revoke: () => revokeStaffSession(db, session.id),
  };
}

/** The signed-in staff member, if any, without redirecting or renewing (for /login and the outbox). */
export async function currentStaff(store: StoreRuntime, request: Request): Promise<StaffUser | null> {
  const { sid } = await readStaffCookie(store, request);
  if (!sid) return null;
  return (await findActiveStaffSession(store.db, sid, store.clock.now()))?.staff ?? null;
}

/** An owner-only action refused to the signed-in account: the page answers with this message and status. */
export interface OwnerRefusal {
  status: 403;
  /** OWNER_ONLY[action], for the page's error message. */
  message: string;
}

/**
 * The guard of owner-only actions (app/staff/roles.ts: prices, catalogImport, refunds, accounts). Null
 * when the signed-in account may do `action`; otherwise the refusal, which the action must return (its
 * page again, with the message and a 403), before it writes anything or calls a provider:
 *
 *   const staff = await requireStaff(context.store, request);
 *   // ...readForm, verifyCsrf, parse: the intent is known...
 *   const refused = requireOwner(staff, "refunds");
 *   if (refused) return reply({ kind: "error", message: refused.message }, refused.status);
 *
 * The role is read from the account's row on every request (findActiveStaffSession), so a changed role
 * counts at once. It returns rather than throws so the refusal is shown on the page, as the staff pages
 * show every other refusal (an expired form, a conflict); a call whose answer is dropped refuses nothing,
 * so ESLint refuses a bare `requireOwner(...);` statement (eslint.config.js).
 */
export function requireOwner(staff: Pick<StaffContext, "staff">, action: OwnerOnlyAction): OwnerRefusal | null {
  return mayDo(staff.staff.role, action) ? null : { status: 403, message: OWNER_ONLY[action] };
}
