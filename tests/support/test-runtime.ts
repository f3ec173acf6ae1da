import type { AppLoadContext } from "@remix-run/node";
import { NO_CATALOG_WATCH } from "~/catalog/catalog-changes.server";
import { parseConfig, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import type { StoreLoadContext } from "~/http/load-context";
import { createJobs, type JobData, type JobName, type Jobs } from "~/jobs/queue.server";
import { createRateLimiter } from "~/security/rate-limit.server";
import { storeServices } from "~/services/store-services.server";
import type { ServiceDeps, StoreRuntime } from "~/store-runtime";
import { systemClock, type Clock } from "~/utils/clock";
import type { TestDatabase } from "./test-database";

export const TEST_ORIGIN = "http://store.test";

/**
 * The store's runtime on a test database, with the configuration `env`
 * describes (and NODE_ENV=test; nothing else of the environment counts): what
 * the server's composition root would start, services included, for calling
 * route loaders and actions directly.
 */
export function testRuntime(
  database: TestDatabase,
  env: Record<string, string> = {},
  {
    clock = systemClock,
    jobs = createJobs(),
  }: {
    /** The runtime's clock (staff sessions, the lock-out, the rate limits), for a test that moves it (tests/support/test-clock.ts). */
    clock?: Clock;
    /** The runtime's job queue: by default one that is never started (nothing is queued), or a test's that it starts. */
    jobs?: Jobs;
  } = {},
): StoreRuntime {
  const config = parseConfig({ NODE_ENV: "test", ...env });
  return {
    config,
    database,
    db: database.db,
    sessionSecret: "test-secret-that-is-long-enough-0123456789",
    // The server reads them from its build's routes; a test of robots.txt reads them from the routes it loads.
    privatePaths: [],
    catalogWatch: NO_CATALOG_WATCH,
    clock,
    jobs,
    rateLimiter: createRateLimiter({ db: database.db, scale: config.RATE_LIMIT_SCALE, now: () => clock.now().getTime() }),
    ...storeServices(config, database.db),
  };
}

/**
 * What domain code takes of a runtime, for a test that holds only a database and a configuration:
 * the services that configuration chooses, built as the runtime builds them (the offline stand-ins
 * unless it says otherwise), and a job queue that is not started unless the test starts it.
 */
export function storeOf(db: Database, config: Config = parseConfig({ NODE_ENV: "test" }), jobs: Jobs = createJobs()): ServiceDeps {
  return { db, config, jobs, ...storeServices(config, db) };
}

/** A database with a job queue, for domain code that queues work: by default one never started, so nothing is queued. */
export function withJobs<Db>(db: Db, jobs: Jobs = createJobs()): { db: Db; jobs: Jobs } {
  return { db, jobs };
}

/** A job queue that runs nothing and keeps what was sent to it, in order, for a test to read. */
export function recordingJobs(): Jobs & { sent: { name: JobName; data: JobData[JobName] }[] } {
  const sent: { name: JobName; data: JobData[JobName] }[] = [];
  return {
    sent,
    send: async (name, data) => void sent.push({ name, data }),
    depths: async () => ({}),
    start: () => Promise.reject(new Error("a recording queue is not started")),
    stop: async () => {},
  };
}

/** What the server hands a loader or action, on this runtime: the test names the client address when it matters. */
export function testContext(store: StoreRuntime, fields: Partial<Omit<StoreLoadContext, "store">> = {}): AppLoadContext {
  return { store, clientAddress: "unknown", requestId: "test-request", cspNonce: "test-nonce", ...fields };
}

export function formData(values: Record<string, string | number>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.set(key, String(value));
  return form;
}

export function postRequest(path: string, values: Record<string, string | number>, cookie?: string): Request {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    body: formData(values),
    headers: cookie ? { Cookie: cookie } : {},
  });
}

/** The name=value part of a Set-Cookie header, for the next request. */
export function cookieFrom(setCookie: string | null): string {
  return (setCookie ?? "").split(";")[0];
}
