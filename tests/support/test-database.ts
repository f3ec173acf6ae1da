import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";

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

/**
 * A freshly migrated, empty database: PGlite in memory, or a throwaway
 * database on the TEST_DATABASE_URL server that is dropped on dispose.
 */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openDatabase({ pgliteDir: "memory://" });
    await handle.migrate();
    return { ...handle, dispose: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `store_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  await handle.migrate();
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
