import { NO_CATALOG_WATCH } from "~/catalog/catalog-changes.server";
import { execFileSync } from "node:child_process";
import { request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { createStoreServer } from "../../server/app";
import { standInBuild } from "../support/stand-in-build";
import {
  connectionLimitsFor,
  DEFAULT_CONNECTIONS_PER_ADDRESS,
  LISTEN_BACKLOG,
  type ConnectionSettings,
} from "../../server/connection-limits";
import { startHalfOpenConnections, type HalfOpenAttack } from "../support/half-open-connections";
import { createLogger } from "~/observability/logger.server";
import type { StoreRuntime } from "~/store-runtime";

/**
 * The store's own HTTP server holds on its own, with no proxy in front: one
 * client address holding thousands of half-open connections (slowloris)
 * gets 256 of them, each closed after the header timeout, and every other
 * client is still answered at once. Loopback only: 127.0.0.1 attacks,
 * 127.0.0.2 is the other client.
 */

/** Enough to pass the per-address cap ten times over, within the open-file limit of both ends in this one process. */
const HALF_OPEN = Math.min(3_000, Math.floor((openFileLimit() - 1_000) / 2));

let server: Server | undefined;
let attack: HalfOpenAttack | undefined;
let moreAttacks: HalfOpenAttack[] = [];

afterEach(async () => {
  attack?.stop();
  attack = undefined;
  for (const other of moreAttacks.splice(0)) other.stop();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  }
});

async function startServer(settings: Partial<ConnectionSettings> = {}): Promise<number> {
  server = createStoreServer({
    build: standInBuild(async () => Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } })),
    // The stand-in for Remix reads no runtime.
    store: { catalogWatch: NO_CATALOG_WATCH } as unknown as StoreRuntime,
    // Request lines and refusal warnings are the server's business, not the test output's.
    logger: createLogger({ write: () => {} }),
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "http://127.0.0.1", TRUSTED_PROXIES: 0, ...settings },
    publicDirectory: tmpdir(),
    sharedCache: false,
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", LISTEN_BACKLOG, resolve));
  return (server.address() as AddressInfo).port;
}

/** One request on a new connection from `localAddress`; resolves with the status and how long it took. */
function timedGet(port: number, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/healthz", localAddress, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 5 s")));
    req.on("error", reject);
    req.end();
  });
}

function openConnections(): Promise<number> {
  return new Promise((resolve, reject) => server!.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("connection limits and timeouts", () => {
  it("defaults to tight timeouts and a cap per address that only applies without a proxy", () => {
    expect(connectionLimitsFor({ TRUSTED_PROXIES: 0 })).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
      maxConnectionsPerAddress: DEFAULT_CONNECTIONS_PER_ADDRESS,
    });
    // Behind a proxy every connection is the proxy's.
    expect(connectionLimitsFor({ TRUSTED_PROXIES: 1 }).maxConnectionsPerAddress).toBe(0);
    expect(connectionLimitsFor({ TRUSTED_PROXIES: 1, MAX_CONNECTIONS_PER_ADDRESS: 1_000 }).maxConnectionsPerAddress).toBe(1_000);
    expect(connectionLimitsFor({ TRUSTED_PROXIES: 0, MAX_CONNECTIONS_PER_ADDRESS: 0 }).maxConnectionsPerAddress).toBe(0);
  });

  it(`answers another client within 1 s while one address holds ${HALF_OPEN} half-open connections`, async () => {
    const port = await startServer();
    attack = startHalfOpenConnections({ port, count: HALF_OPEN, localAddress: "127.0.0.1", dripMs: 1_000 });
    await attack.ready;
    // The server keeps no more than the cap from that address; the rest were closed on arrival (and are being reopened).
    expect(await openConnections()).toBeLessThanOrEqual(DEFAULT_CONNECTIONS_PER_ADDRESS);
    await waitFor(
      () => attack!.closedByServer() >= HALF_OPEN - DEFAULT_CONNECTIONS_PER_ADDRESS,
      10_000,
      "the refused connections to close",
    );
    expect(await openConnections()).toBeLessThanOrEqual(DEFAULT_CONNECTIONS_PER_ADDRESS);

    // Over three seconds, while the refused connections come back for another try.
    const answers = [];
    for (let index = 0; index < 10; index++) {
      answers.push(await timedGet(port, "127.0.0.2"));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const times = answers.map((answer) => Math.round(answer.ms));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(Math.max(...times), `answer times, ms: ${times.join(", ")}`).toBeLessThan(1_000);
    expect(attack.opened(), "the attack went on meanwhile").toBeGreaterThan(HALF_OPEN);
  });

  it("answers a request whose headers never end with 408 and closes it after HEADERS_TIMEOUT_MS", async () => {
    const port = await startServer({ HEADERS_TIMEOUT_MS: 1_000, REQUEST_TIMEOUT_MS: 2_000 });
    const socket = connect({ host: "127.0.0.1", port });
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    const started = Date.now();
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // One byte now and then does not keep it open.
    const drip = setInterval(() => socket.write("X"), 200);
    await new Promise((resolve) => socket.once("close", resolve));
    clearInterval(drip);
    const elapsed = Date.now() - started;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    // The timeout, plus at most one pass of the check that runs every second.
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("keeps the last tenth of MAX_CONNECTIONS for addresses holding few, so addresses that each fill their cap leave room", async () => {
    const port = await startServer({ MAX_CONNECTIONS: 100, MAX_CONNECTIONS_PER_ADDRESS: 40 });
    moreAttacks = ["127.0.0.1", "127.0.0.3", "127.0.0.4"].map((localAddress) =>
      startHalfOpenConnections({ port, count: 40, localAddress, dripMs: 1_000 }),
    );
    await Promise.all(moreAttacks.map((each) => each.ready));
    await waitFor(async () => (await openConnections()) >= 90, 5_000, "the attackers to hold their share");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await openConnections()).toBeLessThanOrEqual(90);

    const answers = [];
    for (let index = 0; index < 5; index++) answers.push(await timedGet(port, "127.0.0.2"));
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(200));
  });

  it("closes connections over MAX_CONNECTIONS as they arrive", async () => {
    const port = await startServer({ MAX_CONNECTIONS: 20, MAX_CONNECTIONS_PER_ADDRESS: 0 });
    attack = startHalfOpenConnections({ port, count: 30, localAddress: "127.0.0.3" });
    await attack.ready;
    await waitFor(async () => (await openConnections()) === 20 && attack!.open() <= 20, 5_000, "the cap to hold");
    expect(attack.closedByServer()).toBeGreaterThanOrEqual(10);
  });
});

/** The open-file limit this process has (Node raises the soft limit to the hard one at start). */
function openFileLimit(): number {
  try {
    const limit = Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim());
    return Number.isFinite(limit) ? limit : 1_024;
  } catch {
    return 1_024;
  }
}
