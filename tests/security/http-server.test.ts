import { NO_CATALOG_WATCH } from "~/catalog/catalog-changes.server";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { brotliCompressSync } from "node:zlib";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_BODY_MAX_BYTES } from "~/http/body-limits";
import { createLogger } from "~/observability/logger.server";
import { currentRequestId } from "~/observability/request-context.server";
import type { StoreRuntime } from "~/store-runtime";
import { createStoreServer } from "../../server/app";
import { standInBuild } from "../support/stand-in-build";

/**
 * The store's HTTP server (server/app.ts) in this process, on a real socket,
 * with a stand-in build whose one route answers like the app's kinds of
 * routes: a page, JSON, a `.data` request, a redirect, a 404. What it proves
 * holds for every route, because the server does it before and around Remix.
 */

interface Seen {
  request: Request;
  context: AppLoadContext;
  bodyBytes?: number;
}

const seen: Seen[] = [];

async function standInForRemix(request: Request, context: AppLoadContext): Promise<Response> {
  const entry: Seen = { request, context };
  seen.push(entry);
  const { pathname } = new URL(request.url);
  if (request.method === "POST") {
    let bytes = 0;
    const reader = request.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
      }
    } catch {
      // Cut off by the server's limit: it has answered 413 already.
    } finally {
      entry.bodyBytes = bytes;
    }
    return Response.json({ bytes });
  }
  switch (pathname) {
    case "/products/all/all.data":
      return new Response("[]", { headers: { "Content-Type": "text/x-script", "Cache-Control": "public, max-age=60" } });
    case "/healthz":
      return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
    case "/api/thing":
      return Response.json({ ok: true });
    case "/_root.data":
      return new Response("[]", { headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" } });
    case "/go":
      return new Response(null, { status: 302, headers: { Location: "/" } });
    case "/context":
      return Response.json({ ...context, store: undefined, url: request.url, runsFor: currentRequestId() });
    case "/framed":
      return new Response("<p>communicator</p>", {
        headers: {
          "Content-Type": "text/html",
          "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self' https://pay.example",
        },
      });
    case "/large-catalogue-page":
      return new Response(
        `<!doctype html><script nonce="${context.cspNonce}">1</script>${"<p>same for everyone</p>".repeat(2000)}<script nonce="${context.cspNonce}">2</script>`,
        {
          headers: {
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": "public, max-age=60",
            "Content-Security-Policy": `script-src 'nonce-${context.cspNonce}'`,
          },
        },
      );
    case "/catalogue-page":
      return new Response(`<!doctype html><script nonce="${context.cspNonce}">1</script><p>same for everyone</p>`, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "public, max-age=60, stale-while-revalidate=600",
          "Content-Security-Policy": `script-src 'nonce-${context.cspNonce}'`,
        },
      });
    case "/":
      return new Response(`<!doctype html><script nonce="${context.cspNonce}">1</script>`, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": `script-src 'nonce-${context.cspNonce}'; frame-ancestors 'none'`,
        },
      });
    default:
      return new Response("Not Found", { status: 404 });
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let port: number;
/** What the servers under test log, one JSON line each. */
const logLines: string[] = [];
const testLogger = createLogger({ write: (line: string) => void logLines.push(line) });
let staticRoot: string;
const ENTRY_SOURCE = `export const x = "${"x".repeat(2000)}";`;

function startServer(trustedProxies: number): Promise<{ server: Server; port: number }> {
  const instance = createStoreServer({
    build: standInBuild(standInForRemix, { assetsBuildDirectory: path.join(staticRoot, "public/build") }),
    // The stand-in for Remix reads no runtime.
    store: { catalogWatch: NO_CATALOG_WATCH } as unknown as StoreRuntime,
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example", TRUSTED_PROXIES: trustedProxies },
    logger: testLogger,
    publicDirectory: path.join(staticRoot, "public"),
  });
  return new Promise((resolve) =>
    instance.listen(0, "127.0.0.1", () => resolve({ server: instance, port: (instance.address() as AddressInfo).port })),
  );
}

beforeAll(async () => {
  staticRoot = mkdtempSync(path.join(tmpdir(), "store-static-"));
  mkdirSync(path.join(staticRoot, "public/build"), { recursive: true });
  writeFileSync(path.join(staticRoot, "public/build/entry-ABC123.js"), ENTRY_SOURCE);
  // What `npm run build` writes beside it (scripts/lib/precompress.ts).
  writeFileSync(path.join(staticRoot, "public/build/entry-ABC123.js.br"), brotliCompressSync(ENTRY_SOURCE));
  writeFileSync(path.join(staticRoot, "public/favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  ({ server, port } = await startServer(0));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(staticRoot, { recursive: true, force: true });
});

afterEach(() => {
  seen.length = 0;
});

/** A request as a client writes it, Host and method included (fetch refuses TRACE, CONNECT and a Host of our choosing). */
function send(
  method: string,
  target: string,
  { headers = {}, body, to = port }: { headers?: Record<string, string | string[]>; body?: string; to?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port: to,
      method,
      path: target,
      headers: { Host: `127.0.0.1:${to}`, ...headers },
      setHost: false,
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    // A CONNECT's answer comes as "connect", whatever its status.
    req.on("connect", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Posts a 40 MB body, produced only as fast as the server takes it, and
 * counts how much of it was written before the answer came.
 */
function postHuge(target: string, { declareLength }: { declareLength: boolean }): Promise<Answer & { written: number }> {
  const total = 40 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, "Content-Type": "application/x-www-form-urlencoded" };
    if (declareLength) headers["Content-Length"] = String(total);
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: target, headers, setHost: false });
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, written }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, written }));
    });
    // The server closes the connection after its 413; a write racing that close may fail.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    pump();
  });
}

const BASELINE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin-allow-popups",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
};

function expectBaseline(answer: Answer) {
  for (const [name, value] of Object.entries(BASELINE)) expect(answer.headers[name], name).toBe(value);
  expect(answer.headers["permissions-policy"]).toContain("camera=()");
  expect(answer.headers["content-security-policy"]).toContain("frame-ancestors");
  expect(answer.headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
}

describe("methods the store never takes", () => {
  it.each(["TRACE", "TRACK", "CONNECT", "PROPFIND", "BREW"])("%s is a 405 with Allow, before the app", async (method) => {
    const answer = await send(method, method === "CONNECT" ? "shop.example:443" : "/");
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(seen).toHaveLength(0);
  });

  it("answers those Node refuses before Express (CONNECT, TRACK) with the same security headers as every response", async () => {
    for (const method of ["CONNECT", "TRACK"]) {
      const answer = await send(method, method === "CONNECT" ? "shop.example:443" : "/");
      for (const [name, value] of Object.entries(BASELINE)) expect(answer.headers[name], `${method} ${name}`).toBe(value);
      expect(answer.headers["permissions-policy"]).toContain("camera=()");
      expect(answer.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
    }
  });

  it("passes the methods routes answer for themselves (PUT, DELETE: the route's 405 page)", async () => {
    expect((await send("DELETE", "/cart")).status).toBe(404);
    expect(seen).toHaveLength(1);
  });
});

describe("the Host header", () => {
  it.each(["ev il", "shop.example/path", "shop.example:99999", "shop..example", "[::1", "a@b", "", "-shop.example"])(
    "a malformed Host %j is a 400",
    async (host) => {
      const answer = await send("GET", "/", { headers: { Host: host } });
      expect(answer.status).toBe(400);
      expectBaseline(answer);
      expect(seen).toHaveLength(0);
    },
  );

  it.each(["shop.example", "shop.example:8080", "127.0.0.1:3000", "[::1]:3000", "localhost"])("%s is fine", async (host) => {
    expect((await send("GET", "/healthz", { headers: { Host: host } })).status).toBe(200);
  });

  it("builds the app's URL from Host only, never X-Forwarded-Host or -Proto without trusted proxies", async () => {
    const answer = await send("GET", "/context?q=1", {
      headers: { Host: "shop.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
    });
    expect(JSON.parse(answer.body).url).toBe("http://shop.example/context?q=1");
  });

  it("reduces an absolute-form request target to its path", async () => {
    const answer = await send("GET", "http://evil.example/context", { headers: { Host: "shop.example" } });
    expect(JSON.parse(answer.body).url).toBe("http://shop.example/context");
  });
});

describe("request bodies are limited before the app reads them", () => {
  it("a declared 40 MB body is refused with 413 at once, without reading it", async () => {
    const answer = await postHuge("/newsletter", { declareLength: true });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(answer.body).toContain("64 KB");
    expectBaseline(answer);
    expect(seen).toHaveLength(0);
    // What was written before the answer came is what the socket buffers held, never the whole body.
    expect(answer.written).toBeLessThan(16 * 1024 * 1024);
  });

  it("a JSON route's 413 is JSON { error }, declared or streamed, like its other refusals", async () => {
    for (const declareLength of [true, false]) {
      const answer = await postHuge("/api/paypal/orders", { declareLength });
      expect(answer.status).toBe(413);
      expect(answer.headers["content-type"]).toContain("application/json");
      expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining("64 KB") });
    }
    const newPurchase = await postHuge("/newPurchase", { declareLength: true });
    expect(JSON.parse(newPurchase.body)).toEqual({ error: expect.stringContaining("KB") });
  });

  it("a 40 MB body without Content-Length is cut off at the limit as it streams", async () => {
    const answer = await postHuge("/contact", { declareLength: false });
    expect(answer.status).toBe(413);
    expect(answer.written).toBeLessThan(16 * 1024 * 1024);
    // The app saw at most the limit of it.
    expect(seen).toHaveLength(1);
    expect(seen[0].bodyBytes ?? 0).toBeLessThanOrEqual(REQUEST_BODY_MAX_BYTES);
  });

  it("a client that asks first (Expect: 100-continue) gets the 413 without being told to send the body", async () => {
    const outcome = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/newsletter",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(40 * 1024 * 1024),
          Expect: "100-continue",
        },
      });
      req.on("continue", () => {
        continued = true;
        req.destroy();
      });
      req.on("response", (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, continued });
        req.destroy();
      });
      req.on("error", (error) => (continued ? resolve({ status: 0, continued }) : reject(error)));
      req.flushHeaders();
    });
    expect(outcome).toEqual({ status: 413, continued: false });
    expect(seen).toHaveLength(0);
  });

  it("a small body announced with Expect: 100-continue is asked for and read", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/contact",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "3", Expect: "100-continue" },
      });
      req.on("continue", () => req.end("a=1"));
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(status).toBe(200);
    expect(seen[0].bodyBytes).toBe(3);
  });

  it("a body within the limit reaches the app whole", async () => {
    const body = "a=" + "b".repeat(REQUEST_BODY_MAX_BYTES - 2);
    const answer = await send("POST", "/contact", { body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).bytes).toBe(REQUEST_BODY_MAX_BYTES);
  });

  it("a page's form a little over the limit is read, so the route answers with the store's 413 page", async () => {
    const body = "message=" + "m".repeat(100 * 1024);
    const answer = await send("POST", "/contact", {
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html,application/xhtml+xml" },
    });
    // The stand-in reads everything it is given; readForm stops at 64 KB and answers the page.
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).bytes).toBe(Buffer.byteLength(body));
    const large = await postHuge("/contact", { declareLength: true });
    expect(large.status).toBe(413);
  });

  it("Stripe's webhook may post a larger signed event", async () => {
    const body = JSON.stringify({ data: "x".repeat(200 * 1024) });
    const answer = await send("POST", "/api/stripe/webhook", { body, headers: { "Content-Type": "application/json" } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).bytes).toBe(Buffer.byteLength(body));
  });

  it("only the return and defect claim pages take a form with photos (16 MB)", async () => {
    const body = "x".repeat(3 * 1024 * 1024);
    const headers = { "Content-Type": "application/x-www-form-urlencoded" };
    for (const path of ["/order-status/ABC2345678/return", "/order-status/ABC2345678/claim"]) {
      const answer = await send("POST", path, { body, headers });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).bytes).toBe(Buffer.byteLength(body));
    }
    const declared = await send("POST", "/order-status/ABC2345678/return", {
      headers: { ...headers, "Content-Length": String(17 * 1024 * 1024) },
    }).catch(() => null);
    if (declared) expect(declared.status).toBe(413);
    expect((await send("POST", "/order-status/ABC2345678", { body, headers }).catch(() => null))?.status ?? 413).toBe(413);
  });

  it("a Content-Length that is not a number is a 400", async () => {
    const answer = await send("POST", "/contact", { headers: { "Content-Length": "12, 12" }, body: "a=1" }).catch(() => null);
    // Node's own parser may refuse it first (also a 400); either way the app never sees it.
    if (answer) expect(answer.status).toBe(400);
    expect(seen).toHaveLength(0);
  });
});

describe("baseline security headers on every response", () => {
  it.each([
    ["a hashed build file", "/build/entry-ABC123.js", 200],
    ["a public file", "/favicon.svg", 200],
    ["/healthz", "/healthz", 200],
    ["a .data request", "/_root.data", 200],
    ["a JSON route", "/api/thing", 200],
    ["a redirect", "/go", 302],
    ["a 404", "/no/such/page", 404],
    ["a page", "/", 200],
  ])("%s", async (_name, target, status) => {
    const answer = await send("GET", target);
    expect(answer.status).toBe(status);
    expectBaseline(answer);
  });

  it("keeps a page's own Content-Security-Policy and sends each header once", async () => {
    const answer = await send("GET", "/");
    expect(answer.headers["content-security-policy"]).toMatch(/^script-src 'nonce-/);
    const raw = await new Promise<string[]>((resolve) => {
      httpRequest({ host: "127.0.0.1", port, path: "/" }, (res) => {
        res.resume();
        resolve(res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()));
      }).end();
    });
    expect(raw.length).toBe(new Set(raw).size);
  });

  it("leaves out X-Frame-Options where the response's own policy lets a page frame it (the iframe communicator)", async () => {
    const answer = await send("GET", "/framed");
    expect(answer.headers["x-frame-options"]).toBeUndefined();
    expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'self' https://pay.example");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("serves hashed build files as immutable for a year, and compresses them", async () => {
    const answer = await send("GET", "/build/entry-ABC123.js", { headers: { "Accept-Encoding": "gzip" } });
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect((await send("GET", "/favicon.svg")).headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("sends a build file's brotli copy to a browser that accepts brotli, and the plain file otherwise", async () => {
    const url = `http://127.0.0.1:${port}/build/entry-ABC123.js`;
    // fetch decodes brotli itself: the text is the file's whether the copy or the file was sent.
    const brotli = await fetch(url, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("content-type")).toBe("application/javascript; charset=UTF-8");
    expect(brotli.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(brotli.headers.get("vary")).toBe("Accept-Encoding");
    expect(await brotli.text()).toBe(ENTRY_SOURCE);

    const refused = await fetch(url, { headers: { "Accept-Encoding": "br;q=0, gzip" } });
    expect(refused.headers.get("content-encoding")).toBe("gzip");
    expect(refused.headers.get("vary")).toBe("Accept-Encoding");
    expect(await refused.text()).toBe(ENTRY_SOURCE);

    // The copy itself is no URL of its own that matters; a file without a copy is served as before.
    const head = await send("HEAD", "/build/entry-ABC123.js", { headers: { "Accept-Encoding": "br" } });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
  });
});

describe("caching of personal data", () => {
  it("a public catalogue answer (a page's .data too) is private for a request with a cookie, and varies on Cookie otherwise", async () => {
    const anonymous = await send("GET", "/products/all/all.data");
    expect(anonymous.headers["cache-control"]).toBe("public, max-age=60");
    expect(anonymous.headers.vary).toMatch(/Cookie/);
    const shopper = await send("GET", "/products/all/all.data", { headers: { Cookie: "cart=abc" } });
    expect(shopper.headers["cache-control"]).toBe("private, no-cache");
    expect(shopper.headers["x-store-cache"]).toBeUndefined();
  });
});

describe("the shared cache of public answers", () => {
  const nonceIn = (answer: Answer) => /nonce="([^"]+)"/.exec(answer.body)?.[1];

  it("answers the next cookie-less request for a public page without the app, with its own nonce, id and headers", async () => {
    const first = await send("GET", "/catalogue-page?cache-test=1");
    const second = await send("GET", "/catalogue-page?cache-test=1");
    expect(seen.filter((entry) => entry.request.url.includes("cache-test=1"))).toHaveLength(1);
    expect(second.status).toBe(200);
    expect(second.body.replace(nonceIn(second)!, "N")).toBe(first.body.replace(nonceIn(first)!, "N"));
    expect(nonceIn(second)).not.toBe(nonceIn(first));
    expect(second.headers["content-security-policy"]).toBe(`script-src 'nonce-${nonceIn(second)}'`);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(second.headers["x-content-type-options"]).toBe("nosniff");
    expect(second.headers.age).toMatch(/^\d+$/);
    // Says which cache answered (the bench counts it); the app's own answer says nothing.
    expect(first.headers["x-store-cache"]).toBeUndefined();
    expect(second.headers["x-store-cache"]).toBe("shared");
    const revalidated = await send("GET", "/catalogue-page?cache-test=1", { headers: { "If-None-Match": String(second.headers.etag) } });
    expect(revalidated.status).toBe(304);
  });

  it.each(["br", "gzip", "identity"])(
    "answers a large page in full, compressed or not (%s), with the nonce in every place",
    async (encoding) => {
      const url = `http://127.0.0.1:${port}/large-catalogue-page?encoding=${encoding}`;
      const first = await fetch(url, { headers: { "Accept-Encoding": encoding } });
      const firstBody = await first.text();
      const second = await fetch(url, { headers: { "Accept-Encoding": encoding } });
      const body = await second.text();
      expect(second.headers.get("x-store-cache")).toBe("shared");
      expect(second.headers.get("content-encoding")).toBe(encoding === "identity" ? null : encoding);
      const nonce = /nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1];
      expect(body.split(`nonce="${nonce}"`)).toHaveLength(3);
      expect(body.replaceAll(nonce!, "N")).toBe(firstBody.replaceAll(/nonce="[^"]+"/g, 'nonce="N"'));
    },
  );

  it("never answers a request with a cookie from it, nor keeps what the app did not make public", async () => {
    await send("GET", "/catalogue-page?cache-test=2");
    const shopper = await send("GET", "/catalogue-page?cache-test=2", { headers: { Cookie: "cart=abc" } });
    expect(shopper.headers["cache-control"]).toBe("private, no-cache");
    expect(shopper.headers["x-store-cache"]).toBeUndefined();
    expect(seen.filter((entry) => entry.request.url.includes("cache-test=2"))).toHaveLength(2);
    await send("GET", "/api/thing");
    await send("GET", "/api/thing");
    expect(seen.filter((entry) => entry.request.url.endsWith("/api/thing"))).toHaveLength(2);
  });
});

describe("the load context", () => {
  it("takes the client address from the socket and ignores X-Forwarded-For without TRUSTED_PROXIES", async () => {
    const answer = await send("GET", "/context", { headers: { "X-Forwarded-For": "203.0.113.50, 198.51.100.1" } });
    expect(JSON.parse(answer.body).clientAddress).toBe("127.0.0.1");
  });

  it("takes the address the trusted proxy appended with TRUSTED_PROXIES=1, not one the client wrote", async () => {
    const proxied = await startServer(1);
    try {
      const answer = await send("GET", "/context", {
        to: proxied.port,
        headers: { "X-Forwarded-For": "6.6.6.6, 203.0.113.50", "X-Forwarded-Proto": "https" },
      });
      const context = JSON.parse(answer.body);
      expect(context.clientAddress).toBe("203.0.113.50");
      expect(context.url).toMatch(/^https:/);
      // The host the proxy appended, not one the client put in front; a malformed one is ignored.
      const forwardedHost = async (value: string) =>
        JSON.parse((await send("GET", "/context", { to: proxied.port, headers: { Host: "shop.example", "X-Forwarded-Host": value } })).body)
          .url;
      expect(await forwardedHost("evil.example, www.shop.example")).toBe("http://www.shop.example/context");
      expect(await forwardedHost("evil.example, bad host")).toBe("http://shop.example/context");
    } finally {
      await new Promise((resolve) => proxied.server.close(resolve));
    }
  });

  it("gives every request its own id (echoed as X-Request-Id) and its own CSP nonce", async () => {
    const first = await send("GET", "/context");
    const second = await send("GET", "/context");
    const [a, b] = [JSON.parse(first.body), JSON.parse(second.body)];
    expect(a.requestId).toBe(first.headers["x-request-id"]);
    expect(a.requestId).not.toBe(b.requestId);
    expect(a.cspNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(a.cspNonce).not.toBe(b.cspNonce);
    // What Remix runs (and the jobs and emails it queues) knows the id without being handed it.
    expect(a.runsFor).toBe(a.requestId);
  });

  it("never lets a client talking to the store choose its request id", async () => {
    const answer = await send("GET", "/context", { headers: { "X-Request-Id": "chosen-by-the-client" } });
    expect(answer.headers["x-request-id"]).not.toBe("chosen-by-the-client");
    expect(JSON.parse(answer.body).requestId).toBe(answer.headers["x-request-id"]);
  });

  it("takes the trusted proxy's X-Request-Id with TRUSTED_PROXIES=1 when it looks like an id, and makes its own otherwise", async () => {
    const proxied = await startServer(1);
    try {
      const idFor = async (value: string | string[]) => {
        const answer = await send("GET", "/context", { to: proxied.port, headers: { "X-Request-Id": value } });
        expect(JSON.parse(answer.body).requestId).toBe(answer.headers["x-request-id"]);
        return answer.headers["x-request-id"];
      };
      const caddys = "3be3c214-377d-4172-9139-e4819c5c39a0";
      logLines.length = 0;
      expect(await idFor(caddys)).toBe(caddys);
      // The request line carries the proxy's id, so the proxy's access line and the store's join.
      await expect.poll(() => logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "request")?.requestId).toBe(caddys);
      for (const malformed of ["short", "has spaces in it", "<script>alert(1)</script>", "x".repeat(65), [caddys, caddys]]) {
        const id = await idFor(malformed);
        expect(id).not.toBe(malformed);
        expect(id).toMatch(/^[\w-]{8,}$/);
      }
    } finally {
      await new Promise((resolve) => proxied.server.close(resolve));
    }
  });
});

describe("request logs", () => {
  it("writes one JSON line per request with id, method, path, status and duration, and no query string", async () => {
    logLines.length = 0;
    const answer = await send("GET", "/context?email=someone%40example.com&card=4242424242424242", {
      headers: { Cookie: "staff_session=secret-session-value", Authorization: "Bearer sk_live_secret" },
    });
    const requestEntries = () => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
    // The line is written when the response has finished, which may be just after the client has it.
    await expect.poll(requestEntries).toHaveLength(1);
    const entries = requestEntries();
    expect(entries[0]).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      requestId: answer.headers["x-request-id"],
      method: "GET",
      path: "/context",
      status: 200,
      durationMs: expect.any(Number),
    });
    const all = logLines.join("\n");
    for (const secret of ["someone", "4242", "secret-session-value", "sk_live"]) expect(all).not.toContain(secret);
  });
});
