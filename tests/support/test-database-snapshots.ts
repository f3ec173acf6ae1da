import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { readCatalogFiles } from "~/catalog/catalog-files.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import { openDatabase } from "~/db/database.server";
import type { TestDatabaseSnapshots } from "./test-database";

/**
 * Vitest global set-up (vitest.config.ts): the expensive part of a test
 * database, done once per run instead of once per test file. A new PGlite
 * runs initdb (seconds of WebAssembly), then the migrations, and some files
 * load the whole catalogue too; on a busy machine that set-up alone outran
 * the hook time-out. Here one PGlite is migrated and saved (dumpDataDir), then
 * loaded with the committed catalogue and saved again; on TEST_DATABASE_URL
 * the same two states become template databases. createTestDatabase gives
 * each test file its own copy (tests/support/test-database.ts).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "store-test-databases-"));
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const snapshots: TestDatabaseSnapshots = { pglite: await pgliteSnapshots(dir) };
    if (process.env.TEST_DATABASE_URL) snapshots.postgres = await postgresTemplates(process.env.TEST_DATABASE_URL, cleanups);
    project.provide("testDatabases", snapshots);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function pgliteSnapshots(dir: string): Promise<TestDatabaseSnapshots["pglite"]> {
  const handle = await openDatabase({ pgliteDir: "memory://" });
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const save = async (name: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
      return file;
    };
    await handle.migrate();
    const empty = await save("migrated.tar");
    await loadCatalogIfChanged(handle.db, readCatalogFiles());
    return { empty, catalog: await save("catalog.tar") };
  } finally {
    await handle.close();
  }
}

async function postgresTemplates(adminUrl: string, cleanups: Array<() => Promise<void>>): Promise<TestDatabaseSnapshots["postgres"]> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  cleanups.push(() => admin.end({ timeout: 5 }));
  const base = `store_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  const create = async (name: string, template?: string) => {
    await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    cleanups.push(async () => void (await admin.unsafe(`drop database if exists "${name}" with (force)`)));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return openDatabase({ url: url.toString() });
  };
  const empty = `${base}_migrated`;
  const migrated = await create(empty);
  await migrated.migrate();
  await migrated.close();
  // A template must have no connections while it is copied: every handle is closed before the tests start.
  const catalog = `${base}_catalog`;
  const loaded = await create(catalog, empty);
  await loadCatalogIfChanged(loaded.db, readCatalogFiles());
  await loaded.close();
  return { empty, catalog };
}
