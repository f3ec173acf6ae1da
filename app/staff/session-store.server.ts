import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { staffSessions, staffUsers } from "~/db/schema";
import type { StaffUser } from "./staff-user";

/**
 * Staff sessions recorded on the server (`staff_sessions`). The browser's
 * cookie holds only a random 32-byte token; the row is keyed by its SHA-256,
 * so the table alone cannot be used to sign in. A session is valid while its
 * row exists, is not revoked and was seen within SESSION_IDLE_MS; signing
 * out, a password change and `npm run staff:revoke` revoke rows, which every
 * server process sees at once.
 */

/** A session is signed out after this long without a guarded request. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Revoked and expired rows are deleted once they are this old (kept a day for a look in the database). */
const KEEP_ENDED_MS = 24 * 60 * 60 * 1000;

export type Flash = { kind: "success" | "error"; message: string };

export interface ActiveStaffSession {
  /** The row's id (the token's hash). */
  id: string;
  staff: StaffUser;
  csrf: string;
  flash: Flash | null;
}

export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

export function newCsrfToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sessionIdFor(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Starts a session for a staff member who just proved their password; returns the cookie's token. */
export async function createStaffSession(db: Database, staffId: string, now: Date): Promise<{ token: string; csrf: string }> {
  await pruneEndedSessions(db, now);
  const token = newSessionToken();
  const csrf = newCsrfToken();
  await db.insert(staffSessions).values({ id: sessionIdFor(token), staffId, csrfToken: csrf, createdAt: now, lastSeenAt: now });
  return { token, csrf };
}

/** The live session behind a cookie's token: not revoked, not idle too long, its account still there. */
export async function findActiveStaffSession(db: Database, token: string, now: Date): Promise<ActiveStaffSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({
      id: staffSessions.id,
      csrf: staffSessions.csrfToken,
      flash: staffSessions.flash,
      staffId: staffUsers.id,
      email: staffUsers.email,
      role: staffUsers.role,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.id, sessionIdFor(token)),
        isNull(staffSessions.revokedAt),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
      ),
    );
  if (!row) return null;
  return { id: row.id, staff: { id: row.staffId, email: row.email, role: row.role }, csrf: row.csrf, flash: row.flash ?? null };
}

/** Renews the idle clock and uses up the one-time message. */
export async function touchStaffSession(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ lastSeenAt: now, flash: null })
    .where(and(eq(staffSessions.id, id), isNull(staffSessions.revokedAt)));
}

/** A message for the session's next page (POST-redirect-GET). */
export async function setStaffSessionFlash(db: Database, id: string, flash: Flash): Promise<void> {
  await db.update(staffSessions).set({ flash }).where(eq(staffSessions.id, id));
}

/**
 * Ends one session (sign-out). A revocation counts from the moment it is written, so it is stamped with
 * the database's clock; only the idle expiry, a decision, reads the runtime's clock.
 */
export async function revokeStaffSession(db: Database, id: string): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(staffSessions.id, id), isNull(staffSessions.revokedAt)));
}

/** Ends the session a cookie's token names, if any. */
export async function endSessionOfToken(db: Database, token: string): Promise<void> {
  await revokeStaffSession(db, sessionIdFor(token));
}

/** Ends every session of an account at once (password change, `npm run staff:revoke`); returns how many were live. */
export async function revokeAllStaffSessions(db: Pick<Database, "update">, staffId: string): Promise<number> {
  const ended = await db
    .update(staffSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)))
    .returning({ id: staffSessions.id });
  return ended.length;
}

async function pruneEndedSessions(db: Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - KEEP_ENDED_MS);
  await db
    .delete(staffSessions)
    .where(or(lt(staffSessions.revokedAt, cutoff), lt(staffSessions.lastSeenAt, new Date(cutoff.getTime() - SESSION_IDLE_MS))));
}
