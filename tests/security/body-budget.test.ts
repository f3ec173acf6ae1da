import { NO_CATALOG_WATCH } from "~/catalog/catalog-changes.server";
import { request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { createStoreServer } from "../../server/app";
import type { BodyBudgetSettings } from "../../server/body-budget";
import { standInBuild } from "../support/stand-in-build";
import { createLogger } from "~/observability/logger.server";
import type { StoreRuntime } from "~/store-runtime";

/**
 * Request bodies still arriving are bounded per process (server/body-budget.ts):
 * in all, per client address, and by a minimum data rate after a grace. The
 * store's own server, no proxy in front; each test's slow bodies come from
 * 127.0.0.1 and the shopper who must still be served from 127.0.0.2.
 */

let server: Server | undefined;
const sockets: Socket[] = [];
const warnings: string[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  warnings.length = 0;
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  }
});

async function startServer(settings: BodyBudgetSettings): Promise<number> {
  server = createStoreServer({
    // The route reads the whole body, as an action reading its form does.
    build: standInBuild(async (request) => new Response(`read ${(await request.text()).length}`)),
    store: { catalogWatch: NO_CATALOG_WATCH } as unknown as StoreRuntime,
    logger: createLogger({
      write: (line: string) => {
        const { level, msg } = JSON.parse(line) as { level: string; msg: string };
        if (level === "warn") warnings.push(msg);
      },
    }),
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "http://127.0.0.1", TRUSTED_PROXIES: 0, ...settings },
    publicDirectory: tmpdir(),
    sharedCache: false,
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

interface SlowBody {
  /** Everything the server sent back. */
  answer(): string;
  closed: Promise<number>;
}

/** A POST declaring 60,000 bytes whose body then comes one byte every `dripMs`. */
function slowBody(port: number, localAddress: string, dripMs = 1_000): SlowBody {
  const socket = connect({ host: "127.0.0.1", port, localAddress });
  sockets.push(socket);
  let answer = "";
  const started = Date.now();
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
  socket.on("error", () => {});
  socket.write(
    "POST /cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\na",
  );
  const drip = setInterval(() => socket.writable && socket.write("a"), dripMs);
  const closed = new Promise<number>((resolve) =>
    socket.once("close", () => {
      clearInterval(drip);
      resolve(Date.now() - started);
    }),
  );
  return { answer: () => answer, closed };
}

/** A shopper's whole form post from `localAddress`: its status and body. */
function post(port: number, localAddress: string): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const body = "productId=1&quantity=1";
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/cart",
        method: "POST",
        localAddress,
        agent: false,
        timeout: 5_000,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, retryAfter: res.headers["retry-after"] }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 5 s")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Until the server has taken `count` connections (their requests' headers are read right after). */
async function connectionsOpen(count: number) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) => server!.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    if (open >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${open} of ${count} connections open`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the budget of request bodies in flight", () => {
  it("refuses one address's bodies past its share with 503 and Retry-After, and serves another address", async () => {
    const port = await startServer({ MAX_BODIES_IN_FLIGHT_PER_ADDRESS: 3 });
    const held = [slowBody(port, "127.0.0.1"), slowBody(port, "127.0.0.1"), slowBody(port, "127.0.0.1")];
    await connectionsOpen(3);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const refused = await post(port, "127.0.0.1");
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe("5");
    expect(await post(port, "127.0.0.2")).toMatchObject({ status: 200, body: "read 22" });
    expect(held.map((body) => body.answer())).toEqual(["", "", ""]);
    expect(warnings).toContain("too many bodies in flight from one address");
  });

  it("refuses every address past the process's budget, and takes bodies again once they have arrived", async () => {
    const port = await startServer({ MAX_BODIES_IN_FLIGHT: 2, MAX_BODIES_IN_FLIGHT_PER_ADDRESS: 10 });
    const held = [slowBody(port, "127.0.0.1"), slowBody(port, "127.0.0.1")];
    await connectionsOpen(2);
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect((await post(port, "127.0.0.2")).status).toBe(503);
    for (const socket of sockets) socket.destroy();
    await Promise.all(held.map((body) => body.closed));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await post(port, "127.0.0.2")).status).toBe(200);
  });

  it("answers a body slower than the minimum rate with 408 once the grace is over, and closes it", async () => {
    const port = await startServer({ BODY_GRACE_MS: 1_000, MIN_BODY_BYTES_PER_SECOND: 240 });
    const slow = slowBody(port, "127.0.0.1", 100);
    const closedAfterMs = await slow.closed;
    expect(slow.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.answer()).toContain("the request body arrived too slowly");
    // The grace, at most one pass of the check that runs every second, and the second the client gets to read the answer.
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(closedAfterMs).toBeLessThan(4_000);
    expect(warnings).toEqual(["request body too slow"]);
    // A shopper's post from the same address is untouched.
    expect((await post(port, "127.0.0.1")).status).toBe(200);
  });

  it("lets a body that arrives at the minimum rate through", async () => {
    const port = await startServer({ BODY_GRACE_MS: 500, MIN_BODY_BYTES_PER_SECOND: 240 });
    const body = "x".repeat(720);
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("error", () => {});
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(`POST /cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    // 300 bytes a second, in 30-byte steps, for 2.4 s.
    for (let sent = 0; sent < body.length; sent += 30) {
      socket.write(body.slice(sent, sent + 30));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain("read 720");
  });
});
