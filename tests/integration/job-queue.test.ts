import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/db/database.server";
import { emailDeliveries, paymentAttempts } from "~/db/schema";
import { startJobQueue, stopJobQueue, useJobQueue, type JobQueue } from "~/jobs/queue.server";
import { createAttempt } from "~/payments/attempts.server";
import { deliverEmail, deliverQueuedEmail, type DeliveryPolicy } from "~/services/email/deliveries.server";
import type { EmailSender } from "~/services/email/types";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

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
  let queue: JobQueue | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await stopJobQueue();
    await queue?.stop();
    queue = undefined;
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const start = async () => {
    queue = await startJobQueue(database, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, logger: quietLogger });
    return queue;
  };
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
    await q.send("payment.reconcile", { id: "pa_retried" });
    await waitFor(() => tries.length, 15_000).toBe(3);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(500);
  });

  it("keeps one waiting job per row and time", async () => {
    const q = await start();
    const at = new Date(Date.now() + 60_000);
    await Promise.all([1, 2, 3].map(() => q.send("payment.reconcile", { id: "pa_once" }, { startAfter: at })));
    await q.send("payment.reconcile", { id: "pa_once" }, { startAfter: new Date(at.getTime() + 1) });
    expect((await waitingJobs("payment.reconcile")).filter((job) => job.id === "pa_once")).toHaveLength(2);
  });

  it("stops its timers: a stopped queue runs no more statements", async () => {
    let statements = 0;
    const counted = {
      kind: database.kind,
      executeSql: (text: string, values?: unknown[]) => (statements++, database.executeSql(text, values)),
    };
    const q = await startJobQueue(counted, { pollingIntervalSeconds: 0.5, logger: quietLogger });
    await q.work("email.deliver", async () => {});
    await q.stop();
    const after = statements;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(statements).toBe(after);
  });

  it("sends a failed email again from its job, and the row keeps the record", async () => {
    const q = await start();
    useJobQueue(q);
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
    await q.work("email.deliver", ({ id }) => deliverQueuedEmail(database.db, sender, id));
    const policy: DeliveryPolicy = { maxAttempts: 3, leaseMs: 60_000, backoffMs: () => 1_000 };
    const result = await deliverEmail(
      database.db,
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

  it("schedules a payment's first check when the attempt starts", async () => {
    useJobQueue(await start());
    const attempt = await createAttempt(database.db, { checkoutToken: "c_job", method: "paypal", provider: "paypal", amountCents: 1200 });
    expect(await waitingJobs("payment.reconcile")).toContainEqual({ id: attempt.id });
    await database.db.delete(paymentAttempts).where(eq(paymentAttempts.id, attempt.id));
  });

  it.runIf(kind === "postgres")("gives each job to one process when several work the same queue", async () => {
    const second = await openDatabase({ url: database.url! });
    const queues = [await start(), await startJobQueue(second, { pollingIntervalSeconds: 0.5, logger: quietLogger })];
    try {
      const runs: string[] = [];
      const byProcess = [0, 0];
      for (const [index, q] of queues.entries()) {
        await q.work("email.deliver", async ({ id }) => {
          runs.push(id);
          byProcess[index]! += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
      }
      const ids = Array.from({ length: 20 }, (_, index) => `shared-${index}`);
      for (const [index, id] of ids.entries()) await queues[index % 2]!.send("email.deliver", { id });
      await waitFor(() => runs.length, 30_000).toBe(ids.length);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(runs.sort()).toEqual([...ids].sort());
      expect(byProcess.every((count) => count > 0)).toBe(true);
    } finally {
      await queues[1]!.stop();
      await second.close();
    }
  });
});
