import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect as connectTls } from "node:tls";
import { freePort } from "./free-port";

export const CADDYFILE = path.resolve("deploy/Caddyfile");

/** Why Caddy cannot run here, or null when it can. */
export function caddyMissing(): string | null {
  const result = spawnSync("caddy", ["version"], { encoding: "utf8" });
  return result.status === 0 ? null : "caddy is not installed (apt-get install -y caddy)";
}

export interface CaddyLogLine {
  ts: number;
  level: string;
  logger?: string;
  msg: string;
  [field: string]: unknown;
}

export interface Caddy {
  /** https://localhost:PORT, what shoppers and PUBLIC_BASE_URL use. */
  readonly url: string;
  /** The root of Caddy's own CA (from its data folder), the only one the test's clients trust. */
  readonly ca: string;
  /** Caddy's log so far, parsed (DEBUG: "selected upstream" and "upstream roundtrip" lines per attempt to reach a process). */
  log(): CaddyLogLine[];
  stop(): Promise<void>;
}

export interface CaddyPorts {
  https: number;
  http: number;
  admin: number;
}

export async function reserveCaddyPorts(): Promise<CaddyPorts> {
  return { https: await freePort(), http: await freePort(), admin: await freePort() };
}

/**
 * The project's own deploy/Caddyfile, run by the installed Caddy with its
 * placeholders set for the test: the site is localhost (Caddy's internal CA
 * issues its certificate), the ports and admin endpoint are free ones, and
 * the upstreams are the test's store processes. Its data folder (the CA) is a
 * temporary one, removed by stop().
 */
export async function startCaddy(options: { upstreams: string[]; ports: CaddyPorts; logLevel?: "INFO" | "DEBUG" }): Promise<Caddy> {
  const home = mkdtempSync(path.join(tmpdir(), "store-caddy-"));
  const logFile = path.join(home, "caddy.log");
  const logFd = openSync(logFile, "w");
  const { ports } = options;
  const child: ChildProcess = spawn("caddy", ["run", "--config", CADDYFILE, "--adapter", "caddyfile"], {
    env: {
      ...process.env,
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_CONFIG_HOME: path.join(home, "config"),
      STORE_DOMAIN: "localhost",
      STORE_UPSTREAMS: options.upstreams.join(" "),
      HTTPS_PORT: String(ports.https),
      HTTP_PORT: String(ports.http),
      CADDY_ADMIN: `127.0.0.1:${ports.admin}`,
      CADDY_LOG_LEVEL: options.logLevel ?? "INFO",
    },
    // Straight to a file: the load run's debug log is tens of megabytes.
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const rootFile = path.join(home, "data/caddy/pki/authorities/local/root.crt");
  const url = `https://localhost:${ports.https}`;

  const readLog = (): CaddyLogLine[] =>
    readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as CaddyLogLine);

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(home, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 20_000;
    while (!(existsSync(rootFile) && (await handshakes(ports.https, readFileSync(rootFile, "utf8"))))) {
      if (child.exitCode !== null) throw new Error(`caddy exited with ${child.exitCode}:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`caddy did not serve https in 20 s:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    ca: readFileSync(rootFile, "utf8"),
    log: readLog,
    stop,
  };
}

/** Whether a TLS handshake for localhost, trusting only `ca`, succeeds on the port (the certificate is issued). */
function handshakes(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTls({ host: "127.0.0.1", port, servername: "localhost", ca, ALPNProtocols: ["h2"] }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
