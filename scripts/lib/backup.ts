/**
 * Backups of the store's database and their restore (`npm run db:backup`,
 * `npm run db:restore`, docs/operations.md). PostgreSQL is saved with
 * `pg_dump --format=custom` (compressed) and restored with `pg_restore`; the
 * embedded database (PGlite) with PGlite's own `dumpDataDir` (a gzipped
 * tarball of its data directory), restored by opening a new directory from it.
 * Every step says what it does in one line; an expected mistake (a missing
 * file, a backup of the other kind of database, a target that is not empty,
 * a database the store holds open) is a BackupError with one line to print.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openAsBlob,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { createGunzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { lockPgliteDirectory, PGLITE_LOCK_FILE } from "../../app/db/pglite-lock.server";
import { databaseIdentity } from "./cli";

/** An expected failure, worded for the operator: printed as it is, without a stack. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export type BackupKind = "postgres" | "pglite";
type Log = (line: string) => void;

/** Where backups go unless BACKUP_DIR says otherwise. */
export const DEFAULT_BACKUP_DIR = "./backups";

/** `store-YYYYMMDD-HHMMSS` in UTC, then `.dump` (pg_dump's custom format) or `.pglite.tar.gz`. */
export function backupFileName(kind: BackupKind, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/-|:/g, "")
    .replace("T", "-");
  return `store-${stamp}${kind === "postgres" ? ".dump" : ".pglite.tar.gz"}`;
}

/** Which database a backup file is for, from its first bytes (never its name); a BackupError when it is neither. */
export async function backupKindOf(file: string): Promise<BackupKind> {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}.`);
  if (!statSync(file).isFile()) throw new BackupError(`${file} is not a file.`);
  const head = readHead(file, 5);
  // pg_dump's custom format begins with "PGDMP"; PGlite's dump is a gzipped tar archive.
  if (head.toString("latin1") === "PGDMP") return "postgres";
  if (head[0] === 0x1f && head[1] === 0x8b && (await isGzippedTar(file))) return "pglite";
  throw new BackupError(`${file} is not a backup made by npm run db:backup (neither a pg_dump archive nor an embedded database's dump).`);
}

function readHead(file: string, length: number): Buffer {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/** True when the gzip stream holds a tar archive ("ustar" at byte 257 of its first header). */
async function isGzippedTar(file: string): Promise<boolean> {
  const stream = createReadStream(file).pipe(createGunzip());
  let data = Buffer.alloc(0);
  try {
    for await (const chunk of stream) {
      data = Buffer.concat([data, chunk as Buffer]);
      if (data.length >= 262) break;
    }
  } catch {
    return false;
  } finally {
    stream.destroy();
  }
  return data.subarray(257, 262).toString("latin1") === "ustar";
}

function describeKind(kind: BackupKind): string {
  return kind === "postgres" ? "a PostgreSQL backup (pg_dump)" : "a backup of the embedded database (PGlite)";
}

/** One size for humans: 2.4 MB. */
function size(file: string): string {
  const bytes = statSync(file).size;
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Backups hold customers' names and addresses: readable by their owner alone. */
function ensureBackupDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

// --- PostgreSQL ------------------------------------------------------------

/** The URL for libpq without its password, which goes in PGPASSWORD: a command line is visible to every local user. */
function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL client program; a BackupError with its own words when it fails or is not installed. */
async function runClientProgram(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const [code] = (await Promise.race([
    once(child, "close"),
    once(child, "error").then(([error]) => {
      throw (error as NodeJS.ErrnoException).code === "ENOENT"
        ? new BackupError(
            `${program} is not installed: install the PostgreSQL client programs (Debian: apt-get install postgresql-client), the server's major version or newer.`,
          )
        : error;
    }),
  ])) as [number | null];
  if (code !== 0) {
    const said = stderr.trim().split("\n").filter(Boolean).slice(0, 3).join(" ");
    throw new BackupError(`${program} failed: ${said || `exit code ${code}`}`);
  }
  return stdout;
}

function where(url: string): string {
  return `PostgreSQL at ${databaseIdentity(url)}`;
}

export async function backupPostgres(url: string, backupDir: string, now: Date, log: Log): Promise<string> {
  const { dbname, env } = libpqConnection(url);
  const version = (await runClientProgram("pg_dump", ["--version"], env)).trim();
  ensureBackupDir(backupDir);
  const file = path.join(backupDir, backupFileName("postgres", now));
  const partial = `${file}.partial`;
  log(`Backing up ${where(url)} with ${version} ...`);
  try {
    await runClientProgram("pg_dump", ["--format=custom", "--no-password", `--file=${partial}`, `--dbname=${dbname}`], env);
    chmodSync(partial, 0o600);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  log(`Wrote ${file} (${size(file)}).`);
  return file;
}

/** How the store's connections name themselves (app/db/database.server.ts). */
const STORE_APPLICATION_NAME = "outdoor-living-store";

/** Tables outside PostgreSQL's own schemas: the store's (public), its migrations' (drizzle) and the job queue's (pgboss). */
const USER_TABLES = `select count(*)::int as n from pg_catalog.pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;

async function withPostgres<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => {}, connection: { application_name: "store-restore" } });
  try {
    return await work(sql);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${where(url)}: ${String((error as Error).message).split("\n")[0]}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function restorePostgres(file: string, url: string, { force }: { force: boolean }, log: Log): Promise<void> {
  const kind = await backupKindOf(file);
  if (kind !== "postgres")
    throw new BackupError(
      `${file} is ${describeKind(kind)}, but the store is configured for PostgreSQL (DATABASE_URL). Unset DATABASE_URL to restore it into PGLITE_DIR.`,
    );
  const { dbname, env } = libpqConnection(url);
  await runClientProgram("pg_restore", ["--version"], env);

  await withPostgres(url, async (sql) => {
    // A store writing while its database is replaced would leave neither the backup nor its own data.
    const [{ stores }] = await sql<{ stores: number }[]>`select count(*)::int as stores from pg_catalog.pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and application_name = ${STORE_APPLICATION_NAME}`;
    if (stores > 0)
      throw new BackupError(`The store is connected to ${where(url)} (${stores} connections): stop every store process first.`);
    const [{ n }] = await sql.unsafe<{ n: number }[]>(USER_TABLES);
    if (n === 0) return log(`${where(url)} is empty.`);
    if (!force)
      throw new BackupError(
        `${where(url)} is not empty (${n} tables). Restore into an empty database, or add --force to DELETE everything in it first.`,
      );
    const schemas = (
      await sql<{ name: string }[]>`select nspname as name from pg_catalog.pg_namespace
        where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_%' order by nspname`
    ).map((row) => row.name);
    log(`--force: deleting everything in ${where(url)} (${n} tables; schemas ${schemas.join(", ")}) ...`);
    await sql.begin(async (tx) => {
      for (const schema of schemas) await tx.unsafe(`drop schema ${quoteIdentifier(schema)} cascade`);
      await tx.unsafe("create schema public");
    });
  });

  log(`Restoring ${file} into ${where(url)} ...`);
  // One transaction: a restore that fails part-way leaves the database as empty as it found it.
  await runClientProgram(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--no-password", `--dbname=${dbname}`, file],
    env,
  );
  log(`Restored: ${await withPostgres(url, (sql) => summary((text) => sql.unsafe(text)))}.`);
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** What the restored database holds, in the words an operator checks: tables, orders, payments, staff accounts. */
async function summary(query: (text: string) => Promise<readonly Record<string, unknown>[]>): Promise<string> {
  const [{ n }] = (await query(USER_TABLES)) as { n: number }[];
  const parts = [`${n} tables`];
  for (const [table, label] of [
    ["orders", "orders"],
    ["payment_attempts", "payment attempts"],
    ["staff_users", "staff accounts"],
  ]) {
    const [{ exists }] = (await query(`select to_regclass('public.${table}') is not null as exists`)) as { exists: boolean }[];
    if (exists) parts.push(`${((await query(`select count(*)::int as n from public.${table}`)) as { n: number }[])[0].n} ${label}`);
  }
  return parts.join(", ");
}

// --- PGlite ----------------------------------------------------------------

async function openPglite(dir: string, loadDataDir?: Blob): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm")]);
  const client = new PGlite(path.resolve(dir), { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  await client.waitReady;
  return client;
}

function hasPgliteDatabase(dir: string): boolean {
  return existsSync(path.join(dir, "PG_VERSION"));
}

export async function backupPglite(dir: string, backupDir: string, now: Date, log: Log): Promise<string> {
  if (dir.startsWith("memory://"))
    throw new BackupError(`PGLITE_DIR is ${dir}: an in-memory database is gone when the store stops; nothing to back up.`);
  if (!hasPgliteDatabase(dir)) throw new BackupError(`No embedded database in ${dir} to back up (PGLITE_DIR).`);
  // The store holds the directory while it runs (PGlite allows one process): DatabaseInUseError says to stop it.
  const release = lockPgliteDirectory(dir);
  try {
    log(`Backing up the embedded database in ${dir} ...`);
    const client = await openPglite(dir);
    let dump: Blob;
    try {
      dump = await client.dumpDataDir("gzip");
    } finally {
      await client.close();
    }
    ensureBackupDir(backupDir);
    const file = path.join(backupDir, backupFileName("pglite", now));
    const partial = `${file}.partial`;
    try {
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      renameSync(partial, file);
    } finally {
      rmSync(partial, { force: true });
    }
    log(`Wrote ${file} (${size(file)}).`);
    return file;
  } finally {
    release();
  }
}

export async function restorePglite(file: string, dir: string, { force }: { force: boolean }, log: Log): Promise<void> {
  const kind = await backupKindOf(file);
  if (kind !== "pglite")
    throw new BackupError(
      `${file} is ${describeKind(kind)}, but the store is configured for the embedded database (PGLITE_DIR). Set DATABASE_URL to restore it into PostgreSQL.`,
    );
  if (dir.startsWith("memory://")) throw new BackupError(`PGLITE_DIR is ${dir}: restore into a directory, not into memory.`);
  mkdirSync(dir, { recursive: true });
  const release = lockPgliteDirectory(dir);
  try {
    if (hasPgliteDatabase(dir)) {
      const client = await openPglite(dir);
      let tables: number;
      try {
        tables = (await client.query<{ n: number }>(USER_TABLES)).rows[0].n;
      } finally {
        await client.close();
      }
      if (tables > 0 && !force)
        throw new BackupError(
          `The embedded database in ${dir} is not empty (${tables} tables). Restore into an empty PGLITE_DIR, or add --force to DELETE the database in it first.`,
        );
      log(
        tables > 0
          ? `--force: deleting the embedded database in ${dir} (${tables} tables) ...`
          : `Replacing the empty database in ${dir} ...`,
      );
      // Everything but the lock this process holds.
      for (const entry of readdirSync(dir)) if (entry !== PGLITE_LOCK_FILE) rmSync(path.join(dir, entry), { recursive: true, force: true });
    } else {
      log(`${dir} holds no database.`);
    }

    log(`Restoring ${file} into ${dir} ...`);
    let client: PGlite;
    try {
      client = await openPglite(dir, await openAsBlob(file));
    } catch (error) {
      throw new BackupError(`Could not restore ${file}: ${String((error as Error).message).split("\n")[0]}`);
    }
    try {
      // The archive carries the lock file of the process that made it: this process holds the directory.
      writeFileSync(path.join(dir, PGLITE_LOCK_FILE), `${process.pid}\n`);
      log(`Restored: ${await summary(async (text) => (await client.query<Record<string, unknown>>(text)).rows)}.`);
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}
