import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";
import { lockPgliteDirectory } from "./pglite-lock.server";
import { guardAvailability } from "./unavailable.server";

export { DatabaseInUseError } from "./pglite-lock.server";

/** The one database type the rest of the app sees, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseTarget = { url: string } | { pgliteDir: string };

/** PGlite and its drizzle driver, imported where a PGlite opens: a store on PostgreSQL never loads them. */
async function loadPglite() {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  return { PGlite, pg_trgm, drizzle, migrate };
}

/** A real PostgreSQL server when DATABASE_URL is set, otherwise the embedded PGlite directory. */
export function databaseTargetFor(config: { DATABASE_URL?: string; PGLITE_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL ? { url: config.DATABASE_URL } : { pgliteDir: config.PGLITE_DIR };
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: "pglite" | "postgres";
  /** Where it lives, for the start-up log; never includes a password. */
  readonly description: string;
  migrate(): Promise<void>;
  /**
   * Runs SQL text as written, for a library that brings its own statements (the job queue, app/jobs):
   * with values, one statement with `$1` parameters; without, possibly several statements, an explicit
   * `begin ... commit` among them, run on one connection and rolled back if one fails.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * Runs `work` while holding the store's start-up lock (a PostgreSQL advisory
   * lock), so processes started together migrate and load the catalogue one
   * after the other: the first does the work, the others find it done.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel`: `onNotify` runs for each NOTIFY committed on it (by any process on this database),
   * `onListen` each time the listening connection is (re)opened, when notifications may have been missed.
   * Resolves to the function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve("drizzle");

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  return "url" in target ? openPostgres(target.url) : openPglite(target.pgliteDir);
}

/**
 * A directory is opened by one process at a time (PGlite's own rule: a second
 * opener corrupts it), enforced by a lock file; DatabaseInUseError otherwise.
 */
async function openPglite(dir: string): Promise<DatabaseHandle> {
  const inMemory = dir.startsWith("memory://");
  if (!inMemory) mkdirSync(dir, { recursive: true });
  const releaseLock = inMemory ? () => {} : lockPgliteDirectory(dir);
  let client: PGlite;
  try {
    const { PGlite, pg_trgm } = await loadPglite();
    client = new PGlite(inMemory ? dir : path.resolve(dir), { extensions: { pg_trgm } });
    await client.waitReady;
  } catch (error) {
    releaseLock();
    throw error;
  }
  const description = inMemory ? "embedded PostgreSQL (PGlite) in memory" : `embedded PostgreSQL (PGlite) in ${dir}`;
  return await pgliteHandle(client, description, releaseLock);
}

/** The handle of an open PGlite (the store's, or a test's copy of a saved one); `afterClose` runs once it is closed. */
export async function pgliteHandle(client: PGlite, description: string, afterClose: () => void = () => {}): Promise<DatabaseHandle> {
  const { drizzle, migrate } = await loadPglite();
  const db = drizzle(client, { schema });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    description,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    async executeSql(text, values) {
      // PGlite runs each call alone (its queries and drizzle's transactions take turns on its one connection).
      try {
        if (values?.length) return { rows: (await client.query<Record<string, unknown>>(text, values)).rows };
        return { rows: (await client.exec(text)).flatMap((result) => result.rows as Record<string, unknown>[]) };
      } catch (error) {
        // A failed statement inside the text's own transaction leaves the one connection aborted until rolled back.
        await client.query("rollback").catch(() => {});
        throw error;
      }
    },
    // One process opens a PGlite directory at a time: nobody to wait for.
    exclusively: (work) => work(),
    async listen(channel, onNotify, onListen) {
      const unlisten = await client.listen(channel, onNotify);
      onListen?.();
      return unlisten;
    },
    ping: () => ping(db as unknown as Database),
    close: async () => {
      try {
        await client.close();
      } finally {
        afterClose();
      }
    },
  };
}

/**
 * The pool, tuned so an outage is short for shoppers: a connection that cannot
 * be opened gives up after 5 s (the page answers 503 at once, not minutes
 * later), reconnection attempts are at most 1 s apart, idle connections are closed after 30 s and every connection is
 * replaced after 30 to 60 minutes (postgres.js's default max_lifetime), so connections killed by a restart or a failover
 * are not kept. A lost connection is reopened by the next query; nothing has
 * to restart.
 */
const POOL_OPTIONS = {
  max: 10,
  connect_timeout: 5,
  idle_timeout: 30,
  // postgres.js waits before reopening a connection after a failure, by default growing to 20 s in
  // an outage: queries would wait that long for a 503, and the store as long to notice the server is
  // back. Capped at 1 s (with jitter), an outage answers at once and the end of it is seen within a second.
  backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1),
  onnotice: () => {},
  connection: { application_name: "outdoor-living-store" },
} as const;

/** The advisory lock key of the start-up work (any number the store uses for nothing else). */
const STARTUP_LOCK_KEY = 7_406_131_925;

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const client = postgres(url, POOL_OPTIONS);
  const db = guardAvailability(drizzlePostgres(client, { schema }));
  const parsed = new URL(url);
  return {
    db: db as unknown as Database,
    kind: "postgres",
    description: `PostgreSQL at ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`,
    migrate: () => migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    async executeSql(text, values) {
      if (values?.length) return { rows: [...(await client.unsafe(text, values.map(asParameter)))] };
      // Several statements (a transaction among them) must share one connection: postgres.js refuses a bare BEGIN on its pool.
      const connection = await client.reserve();
      try {
        const results: unknown = await connection.unsafe(text);
        return { rows: statementRows(results) };
      } catch (error) {
        await connection.unsafe("rollback").catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    async exclusively(work) {
      // Held by one connection's session: a process that dies mid-way releases it with its connection.
      const connection = await client.reserve();
      try {
        await connection`select pg_advisory_lock(${STARTUP_LOCK_KEY})`;
        try {
          return await work();
        } finally {
          await connection`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.catch(() => {});
        }
      } finally {
        connection.release();
      }
    },
    async listen(channel, onNotify, onListen) {
      // postgres.js keeps one connection for it and listens again after a reconnect, calling onListen each time.
      const subscription = await client.listen(channel, onNotify, onListen);
      return () => subscription.unlisten();
    },
    ping: () => ping(db as unknown as Database),
    close: () => client.end({ timeout: 5 }),
  };
}

/** As node-postgres binds them (what such libraries expect): an object as its JSON text, anything else as it is. */
function asParameter(value: unknown): postgres.ParameterOrJSON<never> {
  const isPlainObject =
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) && !ArrayBuffer.isView(value);
  return (isPlainObject ? JSON.stringify(value) : value) as postgres.ParameterOrJSON<never>;
}

/** postgres.js answers several statements with one row list per statement, and one statement with its rows. */
function statementRows(results: unknown): Record<string, unknown>[] {
  const list = results as Record<string, unknown>[] | Record<string, unknown>[][];
  if (list.length > 0 && list.every((item) => Array.isArray(item))) return (list as Record<string, unknown>[][]).flat();
  return [...(list as Record<string, unknown>[])];
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
