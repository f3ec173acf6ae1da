import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { staffLoginAttempts } from "~/db/schema";
import { addressKey } from "~/http/client-address";
import { normalizeStaffEmail } from "./accounts.server";

/**
 * Slows repeated failed sign-ins per account and refuses them per client
 * address, over a sliding 15-minute window:
 *
 * - per account (email): from the 5th failure each attempt waits (1 s, 2 s,
 *   4 s, then 5 s at most) but is never refused, so guesses from many
 *   addresses can slow an account down, never lock its owner out;
 * - per address (the server-resolved client address, never a header the
 *   client wrote; an IPv6 client by its /64, see addressKey): from the 5th
 *   failure the same pause, and after 10 failures that address is refused
 *   until fewer than 10 remain in the window (at most 15 minutes). An office behind one address shares it;
 *   its staff can still sign in from elsewhere.
 *
 * Each attempt is recorded *before* the password is checked and counted
 * with the others, so a burst of parallel guesses cannot all slip under the
 * limit; a success removes the email's record and this attempt's address
 * row. Refused attempts are not counted, so the refusal does lift.
 */
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

export const LOCKOUT_LIMITS = {
  /** Never refused: an account's owner must always be able to sign in. */
  email: { slowAfter: 5, refuseAfter: Number.POSITIVE_INFINITY },
  address: { slowAfter: 5, refuseAfter: 10 },
} as const;

export const MAX_DELAY_MS = 5_000;

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
export const networkKey = (address: string) => `ip:${addressKey(address)}`;

export type AttemptDecision =
  { kind: "refused"; retryAfterMinutes: number; retryAfterMs: number } | { kind: "allowed"; delayMs: number; attempt: AttemptHandle };

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
  const keys = { email: emailKey(input.email), address: networkKey(input.address) };

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
    const refuses = Number.isFinite(limits.refuseAfter);
    const times = await recentAttempts(db, keys[kind], windowStart, refuses ? limits.refuseAfter + 1 : limits.slowAfter + 8);
    // `times` includes this attempt (and any running in parallel): the earlier failures are the others.
    const earlier = times.length - 1;
    if (refuses && earlier >= limits.refuseAfter) {
      // Refused until the oldest of the last `refuseAfter` failures leaves the window.
      const until = times[limits.refuseAfter].getTime() + LOCKOUT_WINDOW_MS;
      retryAt = Math.max(retryAt ?? 0, until);
    }
    delayMs = Math.max(delayMs, delayFor(earlier, limits.slowAfter));
  }

  if (retryAt !== null) {
    await db.delete(staffLoginAttempts).where(inArray(staffLoginAttempts.id, ids));
    const retryAfterMs = Math.max(1000, retryAt - now.getTime());
    return { kind: "refused", retryAfterMinutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)), retryAfterMs };
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
