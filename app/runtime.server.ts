import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getConfig, type Config } from "./config.server";
import { databaseTargetFor, openDatabase, type Database, type DatabaseHandle } from "./db/database.server";
import { storeSettings } from "./db/schema";
import { stopJobQueue } from "./jobs/queue.server";
import { STARTUP_STEPS } from "./startup.server";
import { silentReport, type StartupReport } from "./startup-report.server";

/**
 * Everything the server needs before it answers a request: validated
 * configuration, a migrated database and the session secret. Built once per
 * process and kept on globalThis so `remix dev` rebuilds reuse the same
 * database (PGlite allows one opener per directory).
 */
export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  sessionSecret: string;
}

declare global {
  var __storeRuntime: Promise<Runtime> | undefined;
}

export async function getRuntime(): Promise<Runtime> {
  globalThis.__storeRuntime ??= startRuntime(silentReport);
  return globalThis.__storeRuntime;
}

/**
 * The server's start: every step of the runtime, each reported as it ends,
 * before the server listens (server/index.ts). Later calls share the same start.
 */
export function startStore(report: StartupReport): Promise<Runtime> {
  globalThis.__storeRuntime ??= startRuntime(report);
  return globalThis.__storeRuntime;
}

export async function getDb(): Promise<Database> {
  return (await getRuntime()).database.db;
}

async function startRuntime(report: StartupReport): Promise<Runtime> {
  const config = getConfig();
  const database = await report.step(
    "database",
    async () => stoppingJobsOnClose(await openDatabase(databaseTargetFor(config))),
    (opened) => opened.description,
  );
  try {
    // Several processes started together on one PostgreSQL take turns: without the lock they raced to
    // migrate (two of four died on CREATE EXTENSION) and each loaded the whole catalogue at once.
    return await database.exclusively(async (): Promise<Runtime> => {
      await report.step(
        "migrations",
        () => database.migrate(),
        () => "up to date",
      );
      const sessionSecret = config.SESSION_SECRET ?? (await storedSessionSecret(database.db));
      for (const step of STARTUP_STEPS) {
        await report.step(
          step.name,
          (progress) => step.run({ config, db: database.db, database, report }, progress),
          (summary) => summary,
        );
      }
      return { config, database, sessionSecret };
    });
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

/**
 * The job queue (app/jobs) runs on this database: closing it (the server's
 * shutdown, a failed start) stops the queue first, letting running jobs finish.
 */
function stoppingJobsOnClose(database: DatabaseHandle): DatabaseHandle {
  return {
    ...database,
    async close() {
      try {
        await stopJobQueue();
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
