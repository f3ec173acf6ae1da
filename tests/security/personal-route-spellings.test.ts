import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreRuntime } from "~/store-runtime";
import { createStoreServer } from "../../server/app";
import { createStoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { testRuntime } from "../support/test-runtime";

/**
 * Web cache deception (issue 40): Remix decodes a request's path and matches it
 * without case, so `/ch%65ckout` is the checkout page. Whatever the spelling, a
 * page of one shopper's own data must tell every cache not to keep it.
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

let database: TestDatabase;
let server: Server;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  const runtime: StoreRuntime = testRuntime(database);
  const { build } = await createStoreHandler(runtime);
  server = createStoreServer({
    build,
    store: runtime,
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example", TRUSTED_PROXIES: 0 },
    sharedCache: false,
  });
  port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.dispose();
});

/** A GET as a shopper's browser sends it, the target exactly as written (Node does not normalize it). */
function get(target: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method: "GET", path: target, headers: { Cookie: "cart=abc", ...headers } });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a page of a shopper's own data, however its path is spelled", () => {
  const spellings = [
    "/ch%65ckout",
    "/%63art",
    "/order%2Dstatus/ORDER-1",
    "/order%2dstatus/",
    "/c%61rt.data",
    "/c%61rt.data?_routes=root",
    "/l%6Fgin",
    "/CHECKOUT",
    "/Order-Status/ORDER-1.data",
    "/checkout-canceled-%61ffirm",
    "/d%61shboard",
    "/st%6Fck",
    "/STOCK/blaze-1",
    "/stock%2Ecsv",
    "/stock/%69mport",
  ];

  it.each(spellings)("%s says private, no-store", async (target) => {
    const answer = await get(target, { Accept: "text/html" });
    expect(answer.headers["cache-control"], `${target} (${answer.status})`).toBe("private, no-store");
  });
});

describe("the personal pages the cache rule listed by path before", () => {
  const pages = [
    "/chatbot",
    "/logout",
    "/dev/outbox",
    "/dev/outbox/1",
    "/newsletter/unsubscribe?token=nope",
    "/notify-me/unsubscribe?token=nope",
    "/payments/start",
    "/payments/cancelled",
    "/payments/authorizenet/communicator",
  ];

  it.each(pages)("%s still says private, no-store", async (target) => {
    const answer = await get(target, { Accept: "text/html" });
    expect(answer.headers["cache-control"], `${target} (${answer.status})`).toBe("private, no-store");
  });
});

describe("a page for everyone", () => {
  it("keeps its own policy, also when its path is spelled with escapes", async () => {
    const answer = await get("/privacy-p%6Flicy", { Cookie: "" });
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"] ?? "").not.toContain("no-store");
  });
});
