import { PgBoss, type JobResult, type Queue } from "pg-boss";
import type { DatabaseHandle } from "~/db/database.server";
import { storeLog } from "~/observability/logger.server";
import { currentRequestId, withRequestId } from "~/observability/request-context.server";
import { mapWithLimit } from "~/utils/promise-pool";

/**
 * The store's one way to run background work: pg-boss, a job queue kept in
 * the store's own database (schema `pgboss`, created and migrated by pg-boss
 * at start), on the embedded PGlite as on PostgreSQL. Every server process
 * starts it and works every queue; a job is claimed by one process at a time
 * (`for update skip locked`), a job whose process died is taken up again
 * once it expires, and a handler that throws is retried with back-off.
 *
 * Jobs only say when to look: the rows that need the work (`email_deliveries`,
 * `payment_attempts`) stay the record of what was done and of when it is next
 * due, and the handlers claim them before acting, so a job that runs twice,
 * or early, does nothing more. An email job names its row; a sweep (a payment
 * check) names none and claims every row that is due.
 *
 * This module is the only one that knows pg-boss.
 */

/** Every kind of background work, and the data its job carries. */
export interface JobData {
  /** Send a queued email (`email_deliveries.id`) if its attempt is due. */
  "email.deliver": { id: string };
  /**
   * A sweep: ask the providers about every unfinished payment whose check is due. Jobs queued
   * before sweeps named one attempt (`{ id }`); the handler never reads it, so they sweep too.
   */
  "payment.reconcile": Record<string, never>;
  /** A sweep: delete the checkouts abandoned long ago, a batch at a time; each run queues the next. */
  "checkout.cleanup": Record<string, never>;
  /** Ask EasyPost to follow a shipped order's parcel (`orders.order_id`), unless a tracker follows it already. */
  "shipment.track": { id: string };
  /** A sweep: send every due sales-tax commit and reversal (`tax_transactions`) to the tax provider. */
  "tax.record": Record<string, never>;
  /** A sweep: give back the stock of every checkout hold that expired (`stock_holds`). */
  "stock.release": Record<string, never>;
  /** Email the confirmed "Notify me" subscribers of a product back in stock (`products.key`), once each. */
  "stock.notify": { id: string };
}

export type JobName = keyof JobData;

/**
 * What a job holds besides its own data: the id of the request that queued it (or of the job
 * that queued it, for that request), so its handler's log lines, and the jobs and emails it
 * queues in turn, name the request too (app/observability/request-context.server.ts).
 */
interface Traced {
  requestId?: string;
}

/** Queues whose jobs name no row: a batch of them runs the handler once. */
const SWEEPS: ReadonlySet<JobName> = new Set(["payment.reconcile", "checkout.cleanup", "tax.record", "stock.release"]);

/** A later sweep is set for the end of its 10-second slot, so the rows due within one slot share one job. */
const SWEEP_SLOT_MS = 10_000;

/** Jobs fetched per poll; while they come back full, the next batch is fetched at once. */
const BATCH_SIZE = 10;

/** Jobs of a batch handled at the same time (each email is still its own job, retried on its own). */
const JOBS_AT_ONCE = 5;

/**
 * Each job is keyed by its row (a sweep by its queue) and time
 * (`singletonKey`), and the `short` policy keeps one waiting job per key:
 * every process's start-up can schedule every row that is due without piling
 * up copies. A job whose process died is taken up again after
 * `expireInSeconds`; one whose handler threw (the database was away), after a
 * back-off from `retryDelay` seconds, doubling up to an hour. The rows' own
 * back-off decides when the work is next due; this only makes sure a job that
 * broke is tried again.
 */
function queueOptions(retryDelay: number): Omit<Queue, "name"> {
  return { policy: "short", retryLimit: 10, retryDelay, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 };
}

const JOB_NAMES: readonly JobName[] = [
  "email.deliver",
  "payment.reconcile",
  "checkout.cleanup",
  "shipment.track",
  "tax.record",
  "stock.release",
  "stock.notify",
];

export interface JobQueue {
  /**
   * Queues a job, to run at `startAfter` (at once without; a later sweep at the end of its slot);
   * nothing is added while one for the same row (or sweep) and time waits.
   */
  send<Name extends JobName>(name: Name, data: JobData[Name], options?: { startAfter?: Date }): Promise<void>;
  /**
   * Runs `handler` for this process's share of the queue's jobs, fetched in batches: each job of a
   * batch on its own, a few at a time, or, for a sweep, once for the whole batch. A handler that
   * throws is retried later (a sweep's whole batch with it).
   */
  work<Name extends JobName>(name: Name, handler: (data: JobData[Name]) => Promise<unknown>): Promise<void>;
  /** Jobs due and not yet done (waiting or running) per queue, as pg-boss last counted them (about once a minute). */
  depths(): Promise<Record<JobName, number>>;
  /** Stops fetching, lets running jobs finish (up to a time-out) and stops pg-boss's timers. */
  stop(): Promise<void>;
}

interface QueueOptions {
  /** How often each queue is asked for due jobs; the work it schedules is minutes apart. */
  pollingIntervalSeconds?: number;
  /** The first retry's delay after a handler threw. */
  retryDelaySeconds?: number;
  logger?: Pick<Console, "error" | "warn">;
}

export async function startJobQueue(
  database: Pick<DatabaseHandle, "kind" | "executeSql">,
  { pollingIntervalSeconds = 10, retryDelaySeconds = 30, logger = storeLog }: QueueOptions = {},
): Promise<JobQueue> {
  const boss = new PgBoss({
    // pg-boss runs its statements through the store's own connection (PGlite's one, or the postgres.js pool): no second pool.
    db: { executeSql: (text, values) => database.executeSql(text, values) },
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    // What the store does not use is left off, so an idle store runs few statements: no cron, no instance registry.
    schedule: false,
    registerInstance: false,
    // Job dependencies (flows) are not used: their check runs rarely instead of every 5 s.
    flowIntervalSeconds: 600,
    // Rebuilding indexes concurrently cannot run inside PGlite's single session; the job table stays small anyway.
    reindex: database.kind !== "pglite",
  });
  boss.on("error", (error) => logger.error(`Job queue: ${error.message}`));
  boss.on("warning", (warning) => logger.warn(`Job queue: ${warning.message}`));
  await boss.start();
  // Creating a queue that exists does nothing (several processes start at once).
  for (const name of JOB_NAMES) await boss.createQueue(name, queueOptions(retryDelaySeconds));

  return {
    async send(name, data, { startAfter } = {}) {
      const runAt = runTime(name, startAfter);
      const key = SWEEPS.has(name) ? name : (data as { id: string }).id;
      const requestId = currentRequestId();
      const traced: JobData[typeof name] & Traced = requestId === undefined ? data : { ...data, requestId };
      await boss.send(name, traced, { startAfter: runAt, singletonKey: `${key}@${runAt.toISOString()}` });
    },
    async work(name, handler) {
      const fetching = { pollingIntervalSeconds, batchSize: BATCH_SIZE, burstWhenBatchFull: true };
      if (SWEEPS.has(name)) {
        // One run for the whole batch: it names a request only when every job of the batch was queued for the same one.
        await boss.work<Traced>(name, fetching, (jobs) => {
          const requestIds = new Set(jobs.map(({ data }) => data?.requestId));
          const requestId = requestIds.size === 1 ? [...requestIds][0] : undefined;
          return withRequestId(requestId, () => handler({} as JobData[typeof name]));
        });
        return;
      }
      await boss.work<JobData[typeof name] & Traced>(name, { ...fetching, perJobResults: true }, (jobs) =>
        mapWithLimit(jobs, JOBS_AT_ONCE, async ({ id, data }): Promise<JobResult> => {
          try {
            await withRequestId(data.requestId, () => handler(data));
            return { id, status: "completed" };
          } catch (error) {
            return { id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } };
          }
        }),
      );
    },
    async depths() {
      const depths = Object.fromEntries(JOB_NAMES.map((name) => [name, 0])) as Record<JobName, number>;
      for (const queue of await boss.getQueues([...JOB_NAMES])) {
        if (queue.name in depths) depths[queue.name as JobName] = queue.readyCount + queue.activeCount;
      }
      return depths;
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

/** When a job set for `startAfter` runs: then (at once without), a later sweep at the end of its slot. */
function runTime(name: JobName, startAfter: Date | undefined): Date {
  const runAt = startAfter ?? new Date();
  if (!SWEEPS.has(name) || runAt.getTime() <= Date.now()) return runAt;
  return new Date(Math.ceil(runAt.getTime() / SWEEP_SLOT_MS) * SWEEP_SLOT_MS);
}

/** What domain code takes to queue work: the runtime's `jobs` (a test's, unstarted or started). */
export type JobSender = Pick<Jobs, "send">;

/**
 * The store's job queue as the runtime holds it (StoreRuntime.jobs): built once with the runtime and
 * started by the start-up's jobs step (startup.server.ts), which works its queues; the database's
 * close stops it. Before it starts and after it stops (a script, a test that runs no queue) `send`
 * queues nothing: the row keeps its own schedule, and the next start schedules every row still due
 * (see each feature's start-up).
 */
export interface Jobs {
  send: JobQueue["send"];
  /** The running queue's depths (see JobQueue.depths); none while it does not run. */
  depths(): Promise<Partial<Record<JobName, number>>>;
  /** Starts the queue on `database` (stopping the one this handle ran) and returns it, for its workers. */
  start(database: Pick<DatabaseHandle, "kind" | "executeSql">, options?: QueueOptions): Promise<JobQueue>;
  stop(): Promise<void>;
}

export function createJobs(): Jobs {
  let running: JobQueue | undefined;
  const stop = async () => {
    const queue = running;
    running = undefined;
    await queue?.stop();
  };
  return {
    send: async (name, data, options) => {
      await running?.send(name, data, options);
    },
    depths: async () => (await running?.depths()) ?? {},
    async start(database, options) {
      await stop();
      running = await startJobQueue(database, options);
      return running;
    },
    stop,
  };
}
