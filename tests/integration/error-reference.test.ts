import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "~/observability/logger.server";
import type { StoreRuntime } from "~/store-runtime";
import { createStoreServer } from "../../server/app";
import { createStoreHandler } from "../support/remix-handler";
import { expectErrorLog } from "../support/error-log";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { testRuntime } from "../support/test-runtime";

/**
 * A server error's page names its request, so a shopper who calls can quote
 * it: the id of the X-Request-Id header and of the log lines, server-rendered
 * (it reads without script). Only a 5xx page shows one: no cache keeps those.
 */

let database: TestDatabase;
let server: Server;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase("pglite", { catalog: true });
  const runtime: StoreRuntime = testRuntime(database);
  const { build } = await createStoreHandler(runtime);
  server = createStoreServer({
    build,
    store: runtime,
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example", TRUSTED_PROXIES: 1 },
    logger: createLogger({ write: () => {} }),
  });
  port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.dispose();
});

async function get(target: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${target}`, { headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

const reference = (html: string) => /data-request-id="([^"]+)">([^<]+)<\/code>/.exec(html)?.slice(1);

describe("a server error's page", () => {
  it("shows the request id of its X-Request-Id header as its reference, and is kept by no cache", async () => {
    // The product list's query fails (not an outage: a 500, not the 503 page).
    await database.executeSql("alter table products rename to products_away");
    const log = expectErrorLog();
    try {
      const proxied = "3be3c214-377d-4172-9139-e4819c5c39a0";
      const asked: Record<string, string>[] = [{ "X-Request-Id": proxied }, {}];
      for (const headers of asked) {
        const answer = await get("/products/all/all?reference-test=1", headers);
        expect(answer.status).toBe(500);
        const id = answer.headers.get("x-request-id") ?? "";
        expect(id).toBeTruthy();
        if ("X-Request-Id" in headers) expect(id).toBe(proxied);
        expect(reference(answer.body)).toEqual([id, id]);
        expect(answer.body).toContain("If you contact us about this, quote this reference.");
        expect(answer.headers.get("cache-control")).toBe("no-store");
        // The page's own id is in the request's error line, the one staff look up.
        expect(log.messages().some((line) => line.startsWith("request failed"))).toBe(true);
      }
    } finally {
      await database.executeSql("alter table products_away rename to products");
    }
  });

  it("is the only page that shows one: a page that works or a 404 shows none", async () => {
    for (const target of ["/products/all/all", "/no-such-page"]) {
      const answer = await get(target, { "X-Request-Id": "3be3c214-377d-4172-9139-e4819c5c39a0" });
      expect(answer.status).toBe(target === "/no-such-page" ? 404 : 200);
      expect(answer.body).not.toContain("data-request-id");
      expect(answer.body).not.toContain("3be3c214");
    }
  });
});
