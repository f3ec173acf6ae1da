import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "~/observability/logger.server";
import type { StoreRuntime } from "~/store-runtime";
import { DEFAULT_MAX_BODY_BYTES } from "~/utils/json-route.server";
import { createStoreServer } from "../../server/app";
import { createStoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { testRuntime } from "../support/test-runtime";

/**
 * The store's own routes behind its HTTP server (server/app.ts) on a real
 * socket: what the headers of an answer say about caching and cookies, and
 * how requests the store does not take are answered, as a client sees it.
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let database: TestDatabase;
let runtime: StoreRuntime;
const servers: Array<{ server: Server; port: number }> = [];
/** What the servers log, one JSON line each. */
const logLines: string[] = [];
const testLogger = createLogger({ write: (line: string) => void logLines.push(line) });

async function startServer(trustedProxies: number): Promise<number> {
  const { build } = await createStoreHandler(runtime);
  const server = createStoreServer({
    build,
    store: runtime,
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example", TRUSTED_PROXIES: trustedProxies },
    logger: testLogger,
    sharedCache: false,
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  servers.push({ server, port });
  return port;
}

let direct: number;
let behindProxy: number;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  runtime = testRuntime(database);
  direct = await startServer(0);
  behindProxy = await startServer(1);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
  await database?.dispose();
});

/** One request as a client writes it; `chunks` are sent one by one without Content-Length (chunked). */
function send(
  port: number,
  method: string,
  target: string,
  { headers = {}, body, chunks }: { headers?: Record<string, string>; body?: string; chunks?: Buffer[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path: target, headers });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    if (chunks) for (const chunk of chunks) req.write(chunk);
    req.end(body);
  });
}

const errorLines = () => logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

describe("pages of a shopper's own data are never stored", () => {
  const personalPages = [
    "/cart",
    "/checkout",
    "/custom-product-checkout",
    "/single-product-checkout",
    "/checkout-confirmation",
    "/checkout-authorized/stripe",
    "/checkout-canceled-affirm",
    "/order-status",
    "/order-status/ORDER-1",
    "/test-payment/nope",
    "/payments/authorizenet/nope",
    "/login",
    "/dashboard",
    "/admin",
    "/newsletter/confirm?token=nope",
    "/notify-me/confirm?token=nope",
  ];

  it.each(personalPages)("%s says private, no-store as a document and as its .data request", async (page) => {
    const document = await send(direct, "GET", page, { headers: { Accept: "text/html" } });
    expect(document.headers["cache-control"], `${page} (${document.status})`).toBe("private, no-store");
    const [path, query] = page.split("?");
    const data = await send(direct, "GET", `${path}.data${query ? `?${query}` : ""}`);
    expect(data.headers["cache-control"], `${page}.data (${data.status})`).toBe("private, no-store");
  });

  it("also when a page's data is revalidated for some of its routes, or the page is asked with a trailing slash", async () => {
    const revalidation = await send(direct, "GET", "/cart.data?_routes=root,routes/cart");
    expect(revalidation.headers["cache-control"]).toBe("private, no-store");
    const trailing = await send(direct, "GET", "/order-status/", { headers: { Accept: "text/html" } });
    expect(trailing.headers["cache-control"]).toBe("private, no-store");
  });

  it("while a page for everyone keeps its own policy", async () => {
    const policy = await send(direct, "GET", "/privacy-policy", { headers: { Accept: "text/html" } });
    expect(policy.status).toBe(200);
    expect(policy.headers["cache-control"] ?? "").not.toContain("no-store");
  });
});

describe("the cart cookie's Secure flag", () => {
  const clearCart = (port: number, headers: Record<string, string> = {}) =>
    send(port, "POST", "/cart", {
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: "intent=clear",
    });
  const cartCookie = (answer: Answer) => (answer.headers["set-cookie"] ?? []).find((cookie) => cookie.startsWith("cart="));

  it("does not follow an X-Forwarded-Proto the client wrote when no proxy is trusted", async () => {
    const answer = await clearCart(direct, { "X-Forwarded-Proto": "https" });
    expect(answer.status).toBe(303);
    expect(cartCookie(answer)).toBeDefined();
    expect(cartCookie(answer)).not.toMatch(/;\s*Secure/i);
  });

  it("is set when a trusted proxy says the request came over https", async () => {
    const answer = await clearCart(behindProxy, { "X-Forwarded-Proto": "https" });
    expect(cartCookie(answer)).toMatch(/;\s*Secure/i);
    const plain = await clearCart(behindProxy);
    expect(cartCookie(plain)).not.toMatch(/;\s*Secure/i);
  });
});

describe("old ?_data= requests", () => {
  it("are a quiet 400 that no cache keeps, answered before Remix, with no error logged", async () => {
    logLines.length = 0;
    for (const target of ["/?_data=root", "/cart?_data=routes%2Fcart", "/products/all/all?x=1&_data"]) {
      const answer = await send(direct, "GET", target);
      expect(answer.status, target).toBe(400);
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
    }
    const posted = await send(direct, "POST", "/cart?_data=routes%2Fcart", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=clear",
    });
    expect(posted.status).toBe(400);
    expect(errorLines()).toEqual([]);
    // The request log has each of them, as one line like any other request's.
    const requests = logLines.map((line) => JSON.parse(line) as { msg: string; status: number });
    expect(requests.filter(({ msg, status }) => msg === "request" && status === 400)).toHaveLength(4);
  });
});

describe("a JSON route's own body limit", () => {
  it("answers its JSON 413 to a chunked body past the route's limit (within the server's)", async () => {
    const chunk = Buffer.alloc(4096, "a");
    const chunks = [
      Buffer.from('{"prompt":"'),
      ...Array.from({ length: Math.ceil((DEFAULT_MAX_BODY_BYTES * 2) / chunk.length) }, () => chunk),
    ];
    const answer = await send(direct, "POST", "/api/calculate-shipping", {
      headers: { "Content-Type": "application/json" },
      chunks,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ error: `The payload is larger than ${DEFAULT_MAX_BODY_BYTES} bytes.` });
    expect(errorLines()).toEqual([]);
  });
});
