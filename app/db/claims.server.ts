import { and, asc, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "./database.server";

/**
 * The store's one way to let a single process at a time work on a row. Two forms, one rule: a claim is
 * a conditional update, so of two processes asking at once one gets the row and the other nothing, and
 * every lease is stamped and read by the database's clock (`now()`), which all processes share whatever
 * their machines' time.
 *
 * - A lease on one row, kept in a timestamp column: stamped when taken (`refund_started_at`: the claim
 *   sets it to `databaseNow` where `leaseIsFree`) or kept as its end (`collecting_until`, `next_attempt_at`:
 *   set to `leaseUntil`, free once `leaseEnded`). A process that dies holding it frees it when it runs out;
 *   one that finishes releases it by clearing the column.
 * - A batch of due rows (`dueRowsLocked`): up to `limit` of them, locked with `for update skip locked` for
 *   the update that claims them (moving their lease or their state) in the same statement.
 */

/** The database's time: what a lease is stamped with, and the rest of the update that takes it. */
export const databaseNow: SQL = sql`now()`;

/** A lease stamped when taken is free: never taken, released, or taken more than `seconds` ago. */
export function leaseIsFree(stampedAt: AnyPgColumn, seconds: number): SQL {
  return or(isNull(stampedAt), lt(stampedAt, sql`now() - make_interval(secs => ${seconds})`)) as SQL;
}

/** The end of a lease taken now for `seconds`, for a column that keeps when its lease ends. */
export function leaseUntil(seconds: number): SQL {
  return sql`now() + make_interval(secs => ${seconds})`;
}

/** A lease kept as its end has ended (or was never taken). */
export function leaseEnded(until: AnyPgColumn): SQL {
  return or(isNull(until), lt(until, databaseNow)) as SQL;
}

/**
 * The condition that picks up to `limit` rows (by their key `id`) due at `asOf` (the database's clock unless a
 * sweep's own `now`) by their `dueAt` column, earliest first, among those `where` allows, each locked so that
 * another process's claim skips it: the `where` of the update that claims them.
 */
export function dueRowsLocked(
  db: Pick<Database, "select">,
  id: AnyPgColumn,
  { dueAt, asOf = databaseNow, where, limit }: { dueAt: AnyPgColumn; asOf?: Date | SQL; where?: SQL; limit: number },
): SQL {
  const locked = db
    .select({ id })
    .from(id.table as PgTable)
    .where(and(lte(dueAt, asOf), where))
    .orderBy(asc(dueAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  // `= any(array(...))`, not `in (...)`: PostgreSQL may run an `in` subquery again for each row it updates, and each
  // run skips the rows already claimed, so far more than `limit` would be claimed.
  return sql`${id} = any(array(${locked}))`;
}
