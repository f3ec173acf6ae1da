/**
 * The store's production server as the benchmark runs it: started with the
 * package's own `npm start` command (whatever server that is), on a given
 * database, timed from spawn to its first 200, and measured (RSS) from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { freePort } from "./free-port";

export interface ServerTarget {
  /** "PGlite" or "PostgreSQL". */
  label: string;
  env: Record<string, string>;
  /** Drops what the target created (a throwaway database or directory). */
  dispose: () => Promise<void>;
}

/** A fresh PGlite directory: the first start loads the catalogue into it. */
export function pgliteTarget(): ServerTarget {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-pglite-"));
  return { label: "PGlite", env: { PGLITE_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A throwaway database on the PostgreSQL server of `url` (created empty, dropped at the end). */
export async function postgresTarget(url: string): Promise<ServerTarget> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const name = `bench_${process.pid}_${Date.now().toString(36)}`;
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    label: "PostgreSQL",
    env: { DATABASE_URL: target.toString() },
    dispose: async () => {
      const drop = postgres(admin.toString(), { max: 1, onnotice: () => {} });
      await drop.unsafe(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}

export interface RunningServer {
  origin: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 on `/`. */
  startMs: number;
  rssMb: () => number;
  stop: () => Promise<void>;
}

function startCommand(): string {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  return pkg.scripts.start;
}

export async function startServer(target: ServerTarget, port: number): Promise<RunningServer> {
  const began = performance.now();
  const child: ChildProcess = spawn("sh", ["-c", `exec ${startCommand()}`], {
    env: {
      ...process.env,
      ...target.env,
      PATH: `${path.resolve("node_modules/.bin")}:${process.env.PATH ?? ""}`,
      NODE_ENV: "production",
      // Every shopper of the checkout part comes from 127.0.0.1: limits sized for one person would measure the limiter.
      RATE_LIMIT_SCALE: "1000",
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      // Measured as deployed, metrics on, on a port of its own (9464 may be another store's); the metrics part sets "off" too.
      METRICS_PORT: target.env.METRICS_PORT ?? String(await freePort()),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${origin}/`);
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server did not answer 200 within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startMs = performance.now() - began;
  const pid = child.pid ?? 0;
  return {
    origin,
    pid,
    startMs,
    rssMb: () => {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (a crash ends it by a signal, with no exit code): no "exit" event is coming.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
