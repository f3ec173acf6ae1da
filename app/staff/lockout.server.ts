import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { staffLoginAttempts } from "~/db/schema";
import { addressKey } from "~/http/client-address";
import { normalizeStaffEmail } from "./accounts.server";

/**
 * Slows, then refuses, repeated failed sign-ins over a sliding 15-minute
 * window, counted in the database so every server process counts together
 * (ADR 022). Each attempt counts against two budgets:
 *
 * - its account's: from the 5th failure each attempt waits (1 s, 2 s, 4 s,
 *   then 5 s at most), and after 10 failures the account refuses further
 *   attempts until fewer than 10 remain in the window. Guesses from any
 *   number of addresses share this one budget, so they make no more guesses
 *   a minute than one address can. A known device (a browser that has signed
 *   in to the account before: known-device.server.ts) counts against a
 *   budget of its own instead, which nobody else can spend, so guessing from
 *   elsewhere never locks the owner out on a device they have used;
 * - its address's (addressKey: an IPv6 client by its /64; the address the
 *   server resolved, never a header the client wrote): the same pause and
 *   refusal. An office behind one address shares it.
 *
 * Each attempt is recorded *before* the password is checked and counted
 * with the others, so a burst of parallel guesses cannot all slip under the
 * limit; a success clears the budget it counted against (the account's or
 * the device's) and this attempt's address row. Refused attempts are not
 * counted, so the refusal does lift.
 */
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

export const LOCKOUT_LIMITS = {
  /** The account's budget, or a known device's. */
  account: { slowAfter: 5, refuseAfter: 10 },
  address: { slowAfter: 5, refuseAfter: 10 },
} as const;

export const MAX_DELAY_MS = 5_000;

export function lockoutMessage(minutes: number): string {
  const wait = minutes <= 1 ? "a minute" : `${minutes} minutes`;
  return `Too many failed sign-in attempts. Please wait ${wait} and try again.`;
}

export const emailKey = (email: string) => `email:${normalizeStaffEmail(email)}`;
export const deviceKey = (device: string) => `device:${device}`;
export const networkKey = (address: string) => `ip:${addressKey(address)}`;

export type AttemptDecision =
  { kind: "refused"; retryAfterMinutes: number; retryAfterMs: number } | { kind: "allowed"; delayMs: number; attempt: AttemptHandle };

export interface AttemptHandle {
  /** The password was right: clear the failures of the budget it counted against, and this attempt. */
  succeeded(): Promise<void>;
}

/** The pause before checking a password after `failures` earlier failures. */
export function delayFor(failures: number, slowAfter: number): number {
  if (failures < slowAfter) return 0;
  return Math.min(1000 * 2 ** (failures - slowAfter), MAX_DELAY_MS);
}

/**
 * Records a sign-in attempt for this account (or known device) and address
 * and decides whether it may go ahead, and after how long a pause.
 */
export async function beginSignInAttempt(
  db: Database,
  input: { email: string; address: string; knownDevice: string | null },
  now: Date,
): Promise<AttemptDecision> {
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const keys = {
    account: input.knownDevice ? deviceKey(input.knownDevice) : emailKey(input.email),
    address: networkKey(input.address),
  };

  // Old rows are of no further use; the table stays small.
  await db.delete(staffLoginAttempts).where(lt(staffLoginAttempts.attemptedAt, windowStart));
  const inserted = await db
    .insert(staffLoginAttempts)
    .values([
      { key: keys.account, attemptedAt: now },
      { key: keys.address, attemptedAt: now },
    ])
    .returning({ id: staffLoginAttempts.id, key: staffLoginAttempts.key });
  const ids = inserted.map((row) => row.id);
  const addressRowId = inserted.find((row) => row.key === keys.address)?.id;

  let retryAt: number | null = null;
  let delayMs = 0;
  for (const kind of ["account", "address"] as const) {
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
    const retryAfterMs = Math.max(1000, retryAt - now.getTime());
    return { kind: "refused", retryAfterMinutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)), retryAfterMs };
  }

  return {
    kind: "allowed",
    delayMs,
    attempt: {
      async succeeded() {
        await db.delete(staffLoginAttempts).where(eq(staffLoginAttempts.key, keys.account));
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
