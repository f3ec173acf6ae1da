import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/db/database.server";
import { emailDeliveries, paymentAttempts } from "~/db/schema";
import { log, logger } from "~/observability/logger.server";
import { currentRequestId, withRequestId } from "~/observability/request-context.server";
import { createJobs, startJobQueue, type JobQueue } from "~/jobs/queue.server";
import { createAttempt } from "~/payments/attempts.server";
import { deliverEmail, deliverQueuedEmail, type DeliveryPolicy } from "~/services/email/deliveries.server";
import type { EmailSender } from "~/services/email/types";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { withJobs } from "../support/test-runtime";

/**
 * The store's background work runs on pg-boss in its own database, on PGlite
 * as on PostgreSQL: delayed jobs, retries with back-off, one waiting job per
 * row and time, each job run by one process, and a stop that leaves nothing
 * running. Email deliveries and payment checks are scheduled on it.
 */

const quietLogger = { error: () => {}, warn: () => {} };
const waitFor = <T>(read: () => Promise<T> | T, timeout = 10_000) => expect.poll(read, { timeout, interval: 100 });

describe.each(testDatabaseKinds())("the job queue on %s", (kind) => {
  let database: TestDatabase;
  /** The runtime's queue as the store holds it, started by the tests that need it. */
  const jobs = createJobs();
  /** A queue a test started on its own. */
  let queue: JobQueue | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await jobs.stop();
    await queue?.stop();
    queue = undefined;
    vi.restoreAllMocks();
    // Sweeps carry no row to tell one test's from another's.
    await database.executeSql(`delete from pgboss.job where name = 'payment.reconcile'`);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const start = () => jobs.start(database, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, logger: quietLogger });
  const sweepTimes = async () =>
    (
      await database.executeSql(
        `select start_after from pgboss.job where name = 'payment.reconcile' and state = 'created' order by start_after`,
      )
    ).rows.map((row) => new Date(row.start_after as string).getTime());
  const waitingJobs = async (name: string) =>
    (await database.executeSql(`select data from pgboss.job where name = $1 and state in ('created', 'retry')`, [name])).rows.map(
      (row) => row.data as { id: string },
    );

  it("creates its schema in the store's database, runs a job, and runs a delayed one only once it is due", async () => {
    const q = await start();
    const ran: { id: string; at: number }[] = [];
    await q.work("email.deliver", async ({ id }) => void ran.push({ id, at: Date.now() }));
    const sentAt = Date.now();
    await q.send("email.deliver", { id: "now" });
    await q.send("email.deliver", { id: "later" }, { startAfter: new Date(sentAt + 2_000) });
    await waitFor(() => ran.map((job) => job.id).sort()).toEqual(["later", "now"]);
    expect(ran.find((job) => job.id === "later")!.at - sentAt).toBeGreaterThanOrEqual(1_900);
  });

  it("retries a job whose handler threw, after a growing delay", async () => {
    const q = await start();
    const tries: number[] = [];
    await q.work("payment.reconcile", async () => {
      tries.push(Date.now());
      if (tries.length < 3) throw new Error("database away");
    });
    await q.send("payment.reconcile", {});
    await waitFor(() => tries.length, 15_000).toBe(3);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(500);
  });

  it("keeps one waiting job per row and time, and one sweep per 10-second slot", async () => {
    const q = await start();
    const at = new Date(Math.ceil((Date.now() + 60_000) / 10_000) * 10_000);
    await Promise.all([1, 2, 3].map(() => q.send("email.deliver", { id: "once" }, { startAfter: at })));
    await q.send("email.deliver", { id: "once" }, { startAfter: new Date(at.getTime() + 1) });
    expect((await waitingJobs("email.deliver")).filter((job) => job.id === "once")).toHaveLength(2);

    // Sweeps for times within one slot are one job, set for the slot's end; the next slot has its own.
    for (const offset of [-9_999, -5_000, 0, 1]) await q.send("payment.reconcile", {}, { startAfter: new Date(at.getTime() + offset) });
    expect(await sweepTimes()).toEqual([at.getTime(), at.getTime() + 10_000]);
    expect(await waitingJobs("payment.reconcile")).toEqual([{}, {}]);
  });

  it("fetches several jobs a poll, handles each on its own, and retries only the one that threw", async () => {
    let fetches = 0;
    const counted = {
      kind: database.kind,
      executeSql: (text: string, values?: unknown[]) => (/SKIP LOCKED/.test(text) && fetches++, database.executeSql(text, values)),
    };
    const q = await startJobQueue(counted, { pollingIntervalSeconds: 5, retryDelaySeconds: 1, logger: quietLogger });
    queue = q;
    const ids = Array.from({ length: 30 }, (_, index) => `batch-${index}`);
    for (const id of ids) await q.send("email.deliver", { id });
    const done: string[] = [];
    let broken = true;
    await q.work("email.deliver", async ({ id }) => {
      if (id === "batch-7" && broken) {
        broken = false;
        throw new Error("provider away");
      }
      done.push(id);
    });
    // One job a fetch would take 30 fetches (150 s of polls); ten a fetch, the next at once while they come full: one poll.
    await waitFor(() => done.length, 20_000).toBeGreaterThanOrEqual(29);
    expect(fetches).toBeLessThanOrEqual(4);
    await waitFor(() => done.includes("batch-7"), 20_000).toBe(true);
    expect(done.sort()).toEqual([...ids].sort());
  });

  it("stops its timers: a stopped queue runs no more statements", async () => {
    // The queue's timers are the test's to run: after the stop, a minute of them passes at once. On PostgreSQL the
    // queue gets a pool of its own, opened and closed while the timers are faked, so the shared one keeps real timers.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const own = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      let statements = 0;
      const target = own ?? database;
      const counted = {
        kind: target.kind,
        executeSql: (text: string, values?: unknown[]) => (statements++, target.executeSql(text, values)),
      };
      const q = await startJobQueue(counted, { pollingIntervalSeconds: 0.5, logger: quietLogger });
      await q.work("email.deliver", async () => {});
      const polled = statements;
      // Running, it polls (its fake time moves with real time too): those timers are the ones it could leave behind.
      await waitFor(() => statements).toBeGreaterThan(polled);
      await q.stop();
      const after = statements;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(statements).toBe(after);
    } finally {
      await own?.close();
      vi.useRealTimers();
    }
  });

  it("sends a failed email again from its job, and the row keeps the record", async () => {
    const q = await start();
    let down = true;
    const sent: string[] = [];
    const sender: EmailSender = {
      name: "flaky provider",
      isStandIn: false,
      async send(message) {
        if (down) throw new Error("provider down");
        sent.push(message.subject);
        return { messageId: `m-${sent.length}` };
      },
    };
    await q.work("email.deliver", ({ id }) => deliverQueuedEmail(withJobs(database.db, jobs), sender, id));
    const policy: DeliveryPolicy = { maxAttempts: 3, leaseMs: 60_000, backoffMs: () => 1_000 };
    const result = await deliverEmail(
      withJobs(database.db, jobs),
      sender,
      { to: "ada@example.com", subject: "From its job", text: "x" },
      { policy, logger: quietLogger },
    );
    expect(result.status).toBe("queued");
    const id = (result as { id: string }).id;
    down = false;
    await waitFor(async () => (await database.db.select().from(emailDeliveries).where(eq(emailDeliveries.id, id)))[0]?.status).toBe("sent");
    expect(sent).toEqual(["From its job"]);
    const [row] = await database.db.select().from(emailDeliveries).where(eq(emailDeliveries.id, id));
    expect(row).toMatchObject({ attempts: 2, lastError: null });
  });

  it("puts the id of the request that queued a job in its data, and runs its handler (and its log lines) for that request", async () => {
    const q = await start();
    const requestId = "3be3c214-377d-4172-9139-e4819c5c39a0";
    await withRequestId(requestId, () => jobs.send("email.deliver", { id: "traced" }));
    await jobs.send("email.deliver", { id: "untraced" });
    const data = await waitingJobs("email.deliver");
    expect(data).toContainEqual({ id: "traced", requestId });
    expect(data).toContainEqual({ id: "untraced" });

    const info = vi.spyOn(logger, "info").mockImplementation((() => {}) as never);
    const ranFor = new Map<string, string | undefined>();
    await q.work("email.deliver", async ({ id }) => {
      ranFor.set(id, currentRequestId());
      log("info", "job ran", { jobFor: id });
    });
    await waitFor(() => ranFor.size).toBe(2);
    expect(Object.fromEntries(ranFor)).toEqual({ traced: requestId, untraced: undefined });
    const lines = info.mock.calls.map(([fields]) => fields as Record<string, unknown>).filter((fields) => fields.jobFor);
    expect(lines).toContainEqual({ requestId, jobFor: "traced" });
    expect(lines).toContainEqual({ jobFor: "untraced" });
  });

  it("queues a sweep for a payment's first check when the attempt starts, one for attempts due in the same slot", async () => {
    await start();
    const attempts = [];
    for (const checkoutToken of ["c_job1", "c_job2"]) {
      attempts.push(
        await createAttempt(withJobs(database.db, jobs), { checkoutToken, method: "paypal", provider: "paypal", amountCents: 1200 }),
      );
    }
    const slots = new Set(attempts.map((attempt) => Math.ceil(attempt.nextCheckAt!.getTime() / 10_000) * 10_000));
    expect(await sweepTimes()).toEqual([...slots].sort((a, b) => a - b));
    expect((await waitingJobs("payment.reconcile")).every((data) => Object.keys(data).length === 0)).toBe(true);
    const ids = attempts.map((attempt) => attempt.id);
    await database.db.delete(paymentAttempts).where(inArray(paymentAttempts.id, ids));
  });

  it.runIf(kind === "postgres")("gives each job to one process when several work the same queue", async () => {
    const second = await openDatabase({ url: database.url! });
    const queues = [await start(), await startJobQueue(second, { pollingIntervalSeconds: 0.5, logger: quietLogger })];
    try {
      const run = randomUUID().slice(0, 8);
      const runs: string[] = [];
      const byProcess = [0, 0];
      for (const [index, q] of queues.entries()) {
        await q.work("email.deliver", async ({ id }) => {
          // Jobs an earlier test left waiting may fall due meanwhile: only this test's count.
          if (!id.startsWith(`shared-${run}-`)) return;
          runs.push(id);
          byProcess[index]! += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
      }
      const ids = Array.from({ length: 20 }, (_, index) => `shared-${run}-${index}`);
      for (const [index, id] of ids.entries()) await queues[index % 2]!.send("email.deliver", { id });
      // Once pg-boss has every job marked done none can run again: then each ran once.
      const completed = async () =>
        (
          await database.executeSql(
            `select count(*)::int as n from pgboss.job where name = 'email.deliver' and state = 'completed' and data->>'id' like $1`,
            [`shared-${run}-%`],
          )
        ).rows[0]!.n;
      await waitFor(completed, 30_000).toBe(ids.length);
      expect(runs.sort()).toEqual([...ids].sort());
      expect(byProcess.every((count) => count > 0)).toBe(true);
    } finally {
      await queues[1]!.stop();
      await second.close();
    }
  });
});
