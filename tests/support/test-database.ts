import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { inject } from "vitest";
import { readCatalogFiles } from "~/catalog/catalog-files.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import { openDatabase, pgliteHandle, type DatabaseHandle } from "~/db/database.server";
import { allowReadsUnder } from "./repository-reads";

export type TestDatabaseKind = "pglite" | "postgres";

/** PGlite always; the real PostgreSQL server too when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and removes what the test created. */
  dispose(): Promise<void>;
  /** The throwaway database's URL (PostgreSQL only), for opening a second handle on it, as a second server process would. */
  url?: string;
}

/** What the run's global set-up made once (tests/support/test-database-snapshots.ts): a migrated database, and one with the catalogue. */
export interface TestDatabaseSnapshots {
  /** PGlite data folders saved as tar files. */
  pglite: { empty: string; catalog: string };
  /** Template databases on the TEST_DATABASE_URL server. */
  postgres?: { empty: string; catalog: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabases: TestDatabaseSnapshots;
  }
}

interface TestDatabaseOptions {
  /** With the committed catalogue (catalog/) loaded, as the store loads it at start-up. */
  catalog?: boolean;
}

/**
 * A freshly migrated database of the test file's own: PGlite in memory, or a
 * throwaway database on the TEST_DATABASE_URL server that is dropped on
 * dispose. Copied from what the run's global set-up prepared; made from
 * scratch when there is none (a run without vitest.config.ts).
 */
export async function createTestDatabase(kind: TestDatabaseKind, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const snapshots = inject("testDatabases") as TestDatabaseSnapshots | undefined;
  const state = options.catalog ? "catalog" : "empty";
  if (kind === "pglite") {
    if (snapshots) return openPgliteCopy(snapshots.pglite[state]);
    const handle = await openDatabase({ pgliteDir: "memory://" });
    await prepare(handle, options);
    return { ...handle, dispose: () => handle.close() };
  }
  return createPostgresDatabase(snapshots?.postgres?.[state], options);
}

async function prepare(handle: DatabaseHandle, options: TestDatabaseOptions) {
  await handle.migrate();
  if (options.catalog) await loadCatalogIfChanged(handle.db, readCatalogFiles());
}

/** The store opens PGlite with app/db/database.server.ts; this is the same database, started from a saved data folder. */
async function openPgliteCopy(tarFile: string): Promise<TestDatabase> {
  allowReadsUnder(path.dirname(tarFile));
  const client = new PGlite({ loadDataDir: await openAsBlob(tarFile), extensions: { pg_trgm } });
  await client.waitReady;
  const handle = await pgliteHandle(client, "embedded PostgreSQL (PGlite) in memory");
  return { ...handle, dispose: () => handle.close() };
}

async function createPostgresDatabase(template: string | undefined, options: TestDatabaseOptions): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `store_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  if (!template) await prepare(handle, options);
  return {
    ...handle,
    url: url.toString(),
    async dispose() {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
