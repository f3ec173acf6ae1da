import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { freePort } from "../../../scripts/lib/free-port";

export interface StoreServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly baseURL: string;
  /** Everything the server printed, for assertions on logs. */
  output(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Sends a signal without waiting (the SIGTERM test watches in-flight requests meanwhile). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string | null>;
  /** The process's resident memory now, MB (0 once it has ended). */
  rssMb(): number;
  /** Where the process serves its Prometheus metrics, e.g. http://127.0.0.1:41235/metrics (a port of its own). */
  readonly metricsURL: string;
}

/**
 * The one command that runs the built store. The resilience tests
 * (tests/resilience) start their processes through startStoreServer too, so
 * switching the store to another server command happens here only.
 */
export const STORE_COMMAND = { file: process.execPath, args: ["./build/server.js"] };

/**
 * Starts another store process from the build the Playwright web server
 * made (`build/server.js`, the store's HTTP server, serving `build/index.js`), on its own port and in-memory database, with
 * extra environment: a spec that needs providers' keys pointed at local
 * fakes starts one of these in `beforeAll` and stops it in `afterAll`.
 */
export async function startStoreServer(env: Record<string, string>): Promise<StoreServer> {
  // A PORT of the caller's: a process restarted where a proxy expects it.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort();
  let output = "";
  const child: ChildProcess = spawn(STORE_COMMAND.file, STORE_COMMAND.args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      METRICS_PORT: String(metricsPort),
      PGLITE_DIR: `memory://store-${port}`,
      PUBLIC_BASE_URL: baseURL,
      STAFF_DEMO_PASSWORD: "e2e-staff-password-0001",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
  try {
    await waitForHealth(`${baseURL}/healthz`, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseURL,
    output: () => output,
    stop,
    signal: (signal) => child.kill(signal),
    exited,
    rssMb: () => residentMb(child.pid),
    metricsURL: `http://127.0.0.1:${metricsPort}/metrics`,
  };
}

function residentMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`store exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`store did not become healthy:\n${output()}`);
}
