import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "./config.server";
import type { StoreRuntime } from "./store-runtime";
import { databaseTargetFor, openDatabase, type Database, type DatabaseHandle } from "./db/database.server";
import { storeSettings } from "./db/schema";
import { createRateLimiter } from "./security/rate-limit.server";
import { systemClock } from "./utils/clock";
import { createJobs } from "./jobs/queue.server";
import { storeServices } from "./services/store-services.server";
import { STARTUP_STEPS } from "./startup.server";
import { watchCatalog } from "./catalog/catalog-changes.server";
import type { StartupReport } from "./startup-report.server";

/**
 * Every start-up step of the store, each reported as it ends: the database,
 * its migrations, the session secret, then each feature's step
 * (startup.server.ts); the services the configuration chooses are built here,
 * once. Closing `database` stops what the steps started.
 */
export async function startStoreRuntime(
  config: Config,
  report: StartupReport,
  /** What the composition root read from the build's routes (server/main.ts). */
  fromBuild: Pick<StoreRuntime, "privatePaths">,
): Promise<StoreRuntime> {
  const jobs = createJobs();
  const database = await report.step(
    "database",
    async () => stoppingOnClose(await openDatabase(databaseTargetFor(config)), () => jobs.stop()),
    (opened) => opened.description,
  );
  try {
    // Several processes started together on one PostgreSQL take turns: without the lock they raced to
    // migrate (two of four died on CREATE EXTENSION) and each loaded the whole catalogue at once.
    return await database.exclusively(async (): Promise<StoreRuntime> => {
      await report.step(
        "migrations",
        () => database.migrate(),
        () => "up to date",
      );
      const sessionSecret = config.SESSION_SECRET ?? (await storedSessionSecret(database.db));
      const clock = systemClock;
      const rateLimiter = createRateLimiter({ db: database.db, scale: config.RATE_LIMIT_SCALE, now: () => clock.now().getTime() });
      const services = storeServices(config, database.db);
      for (const step of STARTUP_STEPS) {
        await report.step(
          step.name,
          (progress) => step.run({ config, db: database.db, database, jobs, services, sessionSecret, report }, progress),
          (summary) => summary,
        );
      }
      const catalogWatch = await watchCatalog(database);
      const watched = stoppingOnClose(database, () => catalogWatch.stop());
      return {
        config,
        database: watched,
        db: database.db,
        sessionSecret,
        clock,
        jobs,
        rateLimiter,
        catalogWatch,
        ...services,
        ...fromBuild,
      };
    });
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

/**
 * What runs on this database stops before it closes (the server's shutdown, a failed start): the job
 * queue (app/jobs), letting running jobs finish, and the catalogue watch.
 */
function stoppingOnClose(database: DatabaseHandle, stop: () => Promise<void>): DatabaseHandle {
  return {
    ...database,
    async close() {
      try {
        await stop();
      } finally {
        await database.close();
      }
    },
  };
}

/**
 * Without SESSION_SECRET the store still has to start with nothing configured:
 * it generates a random secret once and keeps it in the database, so sessions
 * survive restarts and no secret is ever hard-coded.
 */
async function storedSessionSecret(db: Database): Promise<string> {
  const generated = randomBytes(32).toString("base64url");
  await db.insert(storeSettings).values({ key: "session_secret", value: generated }).onConflictDoNothing();
  const [row] = await db.select().from(storeSettings).where(eq(storeSettings.key, "session_secret"));
  return row.value;
}
