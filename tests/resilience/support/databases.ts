import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { freePort } from "../../../scripts/lib/free-port";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

/** The shared server's admin URL (the tests only create and drop their own databases on it). */
export const ADMIN_DATABASE_URL =
  process.env.RESILIENCE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Why these tests cannot run on this machine, or null when they can. A server
 * named in RESILIENCE_DATABASE_URL or TEST_DATABASE_URL is taken as given (an
 * unreachable one fails the tests); without one, nothing answering on the
 * default 127.0.0.1:5432 means a machine without PostgreSQL, and they skip.
 */
export async function missingPostgres(): Promise<string | null> {
  if (process.env.RESILIENCE_DATABASE_URL || process.env.TEST_DATABASE_URL) return null;
  const { hostname, port } = new URL(ADMIN_DATABASE_URL);
  const answers = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432), timeout: 5_000 });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
  return answers ? null : `no PostgreSQL: TEST_DATABASE_URL is not set and nothing answers on ${hostname}:${port || 5432}`;
}

export interface ScratchDatabase {
  /** postgres:// URL of the new, empty database. */
  readonly url: string;
  /** A client of its own for the test's checks (row counts). */
  readonly sql: postgres.Sql;
  drop(): Promise<void>;
}

/** A fresh database on the shared PostgreSQL server, created for one test file and dropped after it. */
export async function createScratchDatabase(adminUrl = ADMIN_DATABASE_URL, label = "resilience"): Promise<ScratchDatabase> {
  const name = `store_${label}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
  return {
    url: url.toString(),
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

export interface ThrowawayPostgres {
  /** Admin URL (user postgres, trust) of the server. */
  readonly url: string;
  readonly port: number;
  /** Stops the server as an operator's restart would (fast shutdown: open connections are killed). */
  stop(): void;
  start(): void;
  /** Stops it and removes its folder. */
  destroy(): void;
}

/** Whether initdb and pg_ctl are installed (Debian puts them under /usr/lib/postgresql/N/bin). */
export function throwawayPostgresAvailable(): boolean {
  return postgresBinDir() !== null;
}

/**
 * A PostgreSQL server of the test's own: `initdb` into a temporary folder and
 * `pg_ctl` on its own port, so it can be really stopped and restarted in the
 * middle of a test. As root it runs as the `postgres` user (PostgreSQL refuses root).
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("initdb not found under /usr/lib/postgresql/*/bin");
  const dir = mkdtempSync(path.join(tmpdir(), "store-pg-"));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const run = (command: string, args: string[]) => {
    const [file, ...rest] = [...asPostgres, path.join(bin, command), ...args];
    const result = spawnSync(file, rest, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const pgCtl = (action: "start" | "stop", extra: string[] = []) =>
    run("pg_ctl", [
      "-D",
      dataDir,
      "-w",
      "-l",
      path.join(dir, "server.log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...extra,
      action,
    ]);
  pgCtl("start");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pgCtl("stop", ["-m", "fast"]),
    start: () => pgCtl("start"),
    destroy() {
      try {
        pgCtl("stop", ["-m", "immediate"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const bin = path.join(root, version, "bin");
    if (existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  try {
    return path.dirname(execFileSync("which", ["initdb"], { encoding: "utf8" }).trim());
  } catch {
    return null;
  }
}

export { freePort };
