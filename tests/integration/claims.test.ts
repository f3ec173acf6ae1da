import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/database.server";
import { databaseNow, dueRowsLocked, leaseEnded, leaseIsFree, leaseUntil } from "~/db/claims.server";
import { paymentAttempts } from "~/db/schema";
import type { Database } from "~/db/database.server";
import { insertDueAttempts } from "../../scripts/lib/due-payment-attempts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

/**
 * The one claim helper (app/db/claims.server.ts), on the rows of one table: a lease stamped when taken is
 * held for its seconds and free after them, a lease kept as its end is free once it ended, both by the
 * database's clock; a batch claim takes each due row once, however many claimers ask at the same time.
 */
describe.each(testDatabaseKinds())("claims on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** Takes the refund lease of `id` (as a refund does): true when this call got it. */
  const takeStamped = async (id: string) =>
    (
      await database.db
        .update(paymentAttempts)
        .set({ refundStartedAt: databaseNow })
        .where(and(eq(paymentAttempts.id, id), leaseIsFree(paymentAttempts.refundStartedAt, 120)))
        .returning({ id: paymentAttempts.id })
    ).length === 1;

  it("holds a stamped lease for its seconds, then lets the next claimer take it", async () => {
    const [id] = await insertDueAttempts(database.db, 1);
    expect(await takeStamped(id!)).toBe(true);
    expect(await takeStamped(id!)).toBe(false);
    // Taken by a process that died two minutes and a second ago.
    await database.db
      .update(paymentAttempts)
      .set({ refundStartedAt: sql`now() - make_interval(secs => 121)` })
      .where(eq(paymentAttempts.id, id!));
    expect(await takeStamped(id!)).toBe(true);
    // Released: free at once.
    await database.db.update(paymentAttempts).set({ refundStartedAt: null }).where(eq(paymentAttempts.id, id!));
    expect(await takeStamped(id!)).toBe(true);
  });

  it("frees a lease kept as its end once the database's clock passes it", async () => {
    const [id] = await insertDueAttempts(database.db, 1);
    const ended = async () =>
      (
        await database.db
          .select({ id: paymentAttempts.id })
          .from(paymentAttempts)
          .where(and(eq(paymentAttempts.id, id!), leaseEnded(paymentAttempts.nextCheckAt)))
      ).length === 1;
    // Due a minute ago: its lease (the next check) has ended.
    expect(await ended()).toBe(true);
    await database.db
      .update(paymentAttempts)
      .set({ nextCheckAt: leaseUntil(60) })
      .where(eq(paymentAttempts.id, id!));
    expect(await ended()).toBe(false);
    const [row] = await database.db
      .select({ nextCheckAt: paymentAttempts.nextCheckAt })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, id!));
    const [{ now }] = (await database.executeSql("select now() as now")).rows as { now: string }[];
    expect(row!.nextCheckAt!.getTime() - new Date(now!).getTime()).toBeGreaterThan(55_000);
  });

  it("claims each due row once when several claimers take batches at the same time", async () => {
    const ids = await insertDueAttempts(database.db, 30);
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    const claimBatch = (db: Database) =>
      db
        .update(paymentAttempts)
        .set({ checks: sql`${paymentAttempts.checks} + 1`, nextCheckAt: leaseUntil(300) })
        .where(
          dueRowsLocked(db, paymentAttempts.id, { dueAt: paymentAttempts.nextCheckAt, where: inArray(paymentAttempts.id, ids), limit: 8 }),
        )
        .returning({ id: paymentAttempts.id });
    try {
      // On PostgreSQL half of them through a pool of their own, as another process.
      const batches = await Promise.all(
        [database.db, second?.db, database.db, second?.db, database.db].map((db) => claimBatch(db ?? database.db)),
      );
      expect(batches.every((batch) => batch.length <= 8)).toBe(true);
      // What a row skipped while locked left behind, later batches take; then none is due.
      for (let batch = await claimBatch(database.db); batch.length > 0; batch = await claimBatch(database.db)) batches.push(batch);
      const claimed = batches.flat().map(({ id }) => id);
      expect(claimed.sort()).toEqual([...ids].sort());
    } finally {
      await second?.close();
    }
  });
});
