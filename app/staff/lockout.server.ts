import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { staffLoginAttempts } from "~/db/schema";
import { normalizeStaffEmail } from "./accounts.server";

/**
 * Slows and then refuses repeated failed sign-ins, per email and per client
 * address, over a sliding 15-minute window:
 *
 * - per email: from the 5th failure each attempt waits (1 s, 2 s, 4 s, then
 *   8 s); after 10 failures sign-in is refused until fewer than 10 remain in
 *   the window (at most 15 minutes after the 10th failure);
 * - per address: the same, at 10 and 30 failures, because one address can
 *   be an office or a proxy shared by several staff members (and without a
 *   proxy every client shares the one "local" key).
 *
 * Each attempt is recorded *before* the password is checked and counted
 * with the others, so a burst of parallel guesses cannot all slip under the
 * limit; a success removes the email's record and this attempt's address
 * row. Refused attempts are not counted, so the refusal does lift.
 */
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

export const LOCKOUT_LIMITS = {
  email: { slowAfter: 5, refuseAfter: 10 },
  address: { slowAfter: 10, refuseAfter: 30 },
} as const;

export const MAX_DELAY_MS = 8_000;

/** The clock and the pause, replaceable in tests. */
export const lockoutClock = {
  now: (): Date => new Date(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

export function lockoutMessage(minutes: number): string {
  const wait = minutes <= 1 ? "a minute" : `${minutes} minutes`;
  return `Too many failed sign-in attempts. Please wait ${wait} and try again.`;
}

export const emailKey = (email: string) => `email:${normalizeStaffEmail(email)}`;
export const addressKey = (address: string) => `ip:${address}`;

/**
 * The client's address: the first hop of X-Forwarded-For (set by the proxy
 * in front of the store), else one fixed "local" key. remix-serve does not
 * hand the socket address to the app, and a client talking to the store
 * directly can write any X-Forwarded-For it likes, which is why the email
 * limit is the one that matters.
 */
export function clientAddress(request: Request): string {
  const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return first && /^[0-9a-fA-F:.]{2,45}$/.test(first) ? first.toLowerCase() : "local";
}

export type AttemptDecision = { kind: "refused"; retryAfterMinutes: number } | { kind: "allowed"; delayMs: number; attempt: AttemptHandle };

export interface AttemptHandle {
  /** The password was right: clear the email's failures and this attempt. */
  succeeded(): Promise<void>;
}

/** The pause before checking a password after `failures` earlier failures. */
export function delayFor(failures: number, slowAfter: number): number {
  if (failures < slowAfter) return 0;
  return Math.min(1000 * 2 ** (failures - slowAfter), MAX_DELAY_MS);
}

/**
 * Records a sign-in attempt for this email and address and decides whether
 * it may go ahead, and after how long a pause.
 */
export async function beginSignInAttempt(db: Database, input: { email: string; address: string }): Promise<AttemptDecision> {
  const now = lockoutClock.now();
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const keys = { email: emailKey(input.email), address: addressKey(input.address) };

  // Old rows are of no further use; the table stays small.
  await db.delete(staffLoginAttempts).where(lt(staffLoginAttempts.attemptedAt, windowStart));
  const inserted = await db
    .insert(staffLoginAttempts)
    .values([
      { key: keys.email, attemptedAt: now },
      { key: keys.address, attemptedAt: now },
    ])
    .returning({ id: staffLoginAttempts.id, key: staffLoginAttempts.key });
  const ids = inserted.map((row) => row.id);
  const addressRowId = inserted.find((row) => row.key === keys.address)?.id;

  let retryAt: number | null = null;
  let delayMs = 0;
  for (const kind of ["email", "address"] as const) {
    const limits = LOCKOUT_LIMITS[kind];
    const times = await recentAttempts(db, keys[kind], windowStart, limits.refuseAfter + 1);
    // `times` includes this attempt (and any running in parallel): the earlier failures are the others.
    const earlier = times.length - 1;
    if (earlier >= limits.refuseAfter) {
      // Refused until the oldest of the last `refuseAfter` failures leaves the window.
      const until = times[limits.refuseAfter].getTime() + LOCKOUT_WINDOW_MS;
      retryAt = Math.max(retryAt ?? 0, until);
    }
    delayMs = Math.max(delayMs, delayFor(earlier, limits.slowAfter));
  }

  if (retryAt !== null) {
    await db.delete(staffLoginAttempts).where(inArray(staffLoginAttempts.id, ids));
    return { kind: "refused", retryAfterMinutes: Math.max(1, Math.ceil((retryAt - now.getTime()) / 60_000)) };
  }

  return {
    kind: "allowed",
    delayMs,
    attempt: {
      async succeeded() {
        await db.delete(staffLoginAttempts).where(eq(staffLoginAttempts.key, keys.email));
        if (addressRowId !== undefined) {
          await db.delete(staffLoginAttempts).where(eq(staffLoginAttempts.id, addressRowId));
        }
      },
    },
  };
}

/** The newest attempts for a key inside the window, newest first. */
async function recentAttempts(db: Database, key: string, since: Date, limit: number): Promise<Date[]> {
  const rows = await db
    .select({ attemptedAt: staffLoginAttempts.attemptedAt })
    .from(staffLoginAttempts)
    .where(and(eq(staffLoginAttempts.key, key), gte(staffLoginAttempts.attemptedAt, since)))
    .orderBy(desc(staffLoginAttempts.attemptedAt), desc(staffLoginAttempts.id))
    .limit(limit);
  return rows.map((row) => row.attemptedAt);
}
