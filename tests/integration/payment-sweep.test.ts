import { and, eq, gt, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { paymentAttempts } from "~/db/schema";
import { createJobs, type JobData } from "~/jobs/queue.server";
import { scheduleUnfinishedAttempts, sweepDueAttempts } from "~/payments/reconciler.server";
import { insertDueAttempts } from "../../scripts/lib/due-payment-attempts";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { storeOf, TEST_ORIGIN, withJobs } from "../support/test-runtime";

/**
 * The reconciler keeps up with a busy store: a sweep job claims every due
 * payment attempt in batches and asks a few providers at a time, so 200 due
 * checks take a few seconds, not 200 polls; then it queues the next sweep for
 * the earliest check still ahead, one job for many attempts.
 */

const quietLogger = { error: () => {}, warn: () => {} };
const config = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });

describe.each(testDatabaseKinds())("the reconciler's sweep on %s", (kind) => {
  let database: TestDatabase;
  const jobs = createJobs();
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await jobs.stop();
    // Each test starts from no unfinished attempt.
    await database.db.delete(paymentAttempts);
    await database.executeSql(`delete from pgboss.job where name = 'payment.reconcile'`);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const startQueue = () => jobs.start(database, { pollingIntervalSeconds: 1, retryDelaySeconds: 1, logger: quietLogger });
  const checked = async (ids: string[]) =>
    (
      await database.db
        .select({ id: paymentAttempts.id })
        .from(paymentAttempts)
        .where(and(inArray(paymentAttempts.id, ids), gt(paymentAttempts.checks, 0)))
    ).length;
  const waitingSweeps = async () =>
    (
      await database.executeSql(
        `select data, start_after from pgboss.job where name = 'payment.reconcile' and state in ('created', 'retry') order by start_after`,
      )
    ).rows.map((row) => ({ data: row.data as JobData["payment.reconcile"], startAfter: new Date(row.start_after as string) }));

  it("checks 200 due attempts within a few polls of the job queue, and old per-attempt jobs only sweep", async () => {
    const ids = await insertDueAttempts(database.db, 200);
    const q = await startQueue();
    // Jobs of the shape queued before sweeps (one per attempt) may still wait in a deployed database.
    for (const id of ids.slice(0, 3)) await q.send("payment.reconcile", { id } as never);
    const began = Date.now();
    await q.work("payment.reconcile", () => sweepDueAttempts(storeOf(database.db, config, jobs)));
    expect(await scheduleUnfinishedAttempts(withJobs(database.db, jobs))).toBe(200);

    // One attempt a poll would take 200 s.
    await expect.poll(() => checked(ids), { timeout: 30_000, interval: 100 }).toBe(200);
    expect(Date.now() - began).toBeLessThan(15_000);

    // Done, the sweeps leave one job: the next sweep, for the earliest of the checks they put off.
    const later = async () => (await waitingSweeps()).filter((sweep) => sweep.startAfter.getTime() > began + 60_000);
    await expect.poll(later).toHaveLength(1);
    await expect.poll(waitingSweeps).toHaveLength(1);
    const rows = await database.db.select().from(paymentAttempts).where(inArray(paymentAttempts.id, ids));
    expect(rows.filter((row) => row.status === "started" && row.checks === 1)).toHaveLength(200);
    const earliest = Math.min(...rows.map((row) => row.nextCheckAt!.getTime()));
    expect(earliest).toBeGreaterThan(began + 9 * 60_000);
    const [next] = await later();
    expect(next!.data).toEqual({});
    expect(next!.startAfter.getTime() - earliest).toBeGreaterThanOrEqual(0);
    expect(next!.startAfter.getTime() - earliest).toBeLessThanOrEqual(10_000);
  });

  it("stops claiming when its time runs out and queues another sweep at once", async () => {
    await insertDueAttempts(database.db, 30);
    await startQueue();
    const report = await sweepDueAttempts(storeOf(database.db, config, jobs), { batchSize: 10, budgetMs: 0 });
    expect(report).toMatchObject({ claimed: 10, rescheduled: 10 });
    const [next] = await waitingSweeps();
    expect(next!.startAfter.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("queues the next sweep for an attempt left with its lease (its check threw, or its process died)", async () => {
    const [id] = await insertDueAttempts(database.db, 1);
    const leaseEnd = new Date(Date.now() + 5 * 60_000 + 3_000);
    await database.db.update(paymentAttempts).set({ checks: 1, nextCheckAt: leaseEnd }).where(eq(paymentAttempts.id, id!));
    await startQueue();
    expect((await sweepDueAttempts(storeOf(database.db, config, jobs))).claimed).toBe(0);
    const sweeps = await waitingSweeps();
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]!.startAfter.getTime() - leaseEnd.getTime()).toBeGreaterThanOrEqual(0);
    expect(sweeps[0]!.startAfter.getTime() - leaseEnd.getTime()).toBeLessThanOrEqual(10_000);
  });
});
