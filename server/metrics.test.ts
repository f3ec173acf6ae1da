import { NO_CATALOG_WATCH } from "../app/catalog/catalog-changes.server";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "~/observability/logger.server";
import { metricsRegistry, readAtScrape } from "~/observability/metrics.server";
import type { StoreRuntime } from "~/store-runtime";
import { standInBuild } from "../tests/support/stand-in-build";
import { createStoreServer } from "./app";
import { startMetricsServer } from "./metrics-server";

/**
 * The metrics as a process serves them: the store's HTTP server (with a
 * stand-in build) observes its requests, and the metrics port answers
 * Prometheus' text, and nothing else.
 */

let store: Server;
let storeUrl: string;
let metrics: Server;
let metricsUrl: string;

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), "store-metrics-"));
  mkdirSync(path.join(root, "public/build"), { recursive: true });
  writeFileSync(path.join(root, "public/build/entry-ABC123.js"), "export {};");
  const build = standInBuild(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/broken") return new Response("broken", { status: 500 });
      if (pathname === "/catalogue") return new Response("<p>same for all</p>", { headers: { "Cache-Control": "public, max-age=60" } });
      return new Response("<p>page</p>", { headers: { "Content-Type": "text/html" } });
    },
    { assetsBuildDirectory: path.join(root, "public/build") },
  );
  store = createStoreServer({
    build,
    store: { catalogWatch: NO_CATALOG_WATCH } as unknown as StoreRuntime,
    config: { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example", TRUSTED_PROXIES: 0 },
    logger: createLogger({ write: () => {} }),
    publicDirectory: path.join(root, "public"),
    requestMetrics: true,
  });
  storeUrl = await listening(store);
  metrics = await startMetricsServer(0, "127.0.0.1");
  metricsUrl = `http://127.0.0.1:${(metrics.address() as AddressInfo).port}`;
});

afterAll(async () => {
  readAtScrape(null);
  await Promise.all([store, metrics].map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A series' value in the metrics text, or 0 when it is absent. */
async function valueOf(series: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("request metrics", () => {
  it("observe each request by the route that answered it, its method and status class, never its URL", async () => {
    const count = (route: string, method: string, statusClass: string) =>
      valueOf(`store_http_request_duration_seconds_count{route="${route}",method="${method}",status_class="${statusClass}"}`);
    const before = {
      pages: await count("everything", "GET", "2xx"),
      broken: await count("everything", "GET", "5xx"),
      home: await count("home", "GET", "2xx"),
      assets: await count("assets", "GET", "2xx"),
      odd: await count("everything", "other", "4xx"),
    };
    for (const query of ["a", "b", "c"]) await (await fetch(`${storeUrl}/some/page?q=${query}`)).text();
    await (await fetch(`${storeUrl}/broken`)).text();
    await (await fetch(`${storeUrl}/`)).text();
    await (await fetch(`${storeUrl}/build/entry-ABC123.js`)).text();
    await (await fetch(`${storeUrl}/some/page`, { method: "PROPFIND" })).text();

    expect(await count("everything", "GET", "2xx")).toBe(before.pages + 3);
    expect(await count("everything", "GET", "5xx")).toBe(before.broken + 1);
    expect(await count("home", "GET", "2xx")).toBe(before.home + 1);
    expect(await count("assets", "GET", "2xx")).toBe(before.assets + 1);
    expect(await count("everything", "other", "4xx")).toBe(before.odd + 1);
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(text).not.toContain("/some/page");
    expect(text).not.toContain("q=");
  });

  it("count the shared cache's hits and misses, and render time only for what Remix answered", async () => {
    const hits = await valueOf('store_shared_cache_lookups_total{result="hit"}');
    const misses = await valueOf('store_shared_cache_lookups_total{result="miss"}');
    const renders = await valueOf('store_render_duration_seconds_count{route="everything"}');
    await (await fetch(`${storeUrl}/catalogue`)).text();
    await (await fetch(`${storeUrl}/catalogue`)).text();

    expect(await valueOf('store_shared_cache_lookups_total{result="miss"}')).toBe(misses + 1);
    expect(await valueOf('store_shared_cache_lookups_total{result="hit"}')).toBe(hits + 1);
    expect(await valueOf('store_render_duration_seconds_count{route="everything"}')).toBe(renders + 1);
  });
});

describe("the metrics port", () => {
  it("answers Prometheus' text with the process's own figures at /metrics, and 404 to anything else", async () => {
    const answer = await fetch(`${metricsUrl}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe(metricsRegistry.contentType);
    const text = await answer.text();
    for (const series of ["process_resident_memory_bytes", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes"]) {
      expect(text).toContain(`# TYPE ${series} gauge`);
    }
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("reads what only the database knows when asked, and still answers when the database does not", async () => {
    readAtScrape({
      ready: async () => true,
      oldestUnfinishedPaymentStartedAt: async () => new Date(Date.now() - 120_000),
      jobQueueDepths: async () => ({ "email.deliver": 3, "payment.reconcile": 0 }),
      stockHolds: async () => ({ holds: 2, units: 5 }),
    });
    expect(await valueOf("store_ready")).toBe(1);
    expect(await valueOf("store_payment_oldest_unfinished_attempt_age_seconds")).toBeGreaterThanOrEqual(120);
    expect(await valueOf('store_job_queue_depth{queue="email.deliver"}')).toBe(3);
    expect(await valueOf("store_stock_holds")).toBe(2);
    expect(await valueOf("store_stock_held_units")).toBe(5);

    const down = () => Promise.reject(new Error("database unreachable"));
    readAtScrape({
      ready: () => down(),
      oldestUnfinishedPaymentStartedAt: () => down(),
      jobQueueDepths: () => down(),
      stockHolds: () => down(),
    });
    const answer = await fetch(`${metricsUrl}/metrics`);
    expect(answer.status).toBe(200);
    expect(await valueOf("store_ready")).toBe(0);
  });
});
