import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { products, storeSettings } from "~/db/schema";
import { DatabaseUnavailable, isDatabaseUnavailableError } from "~/db/unavailable.server";
import { logger } from "~/observability/logger.server";
import { expectErrorLog } from "../support/error-log";
import { createScratchDatabase, freePort, type ScratchDatabase } from "../resilience/support/databases";
import { startTcpProxy, type TcpProxy } from "../resilience/support/tcp-proxy";

/**
 * A query that cannot reach PostgreSQL is answered as a 503 Response (the
 * store's "We'll be right back" page with Retry-After), quickly, from every
 * way the app queries; other database errors pass through unchanged; the same
 * pool works again once the server is back.
 */

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the query to fail");
    },
    (error: unknown) => error,
  );
}

function expect503(error: unknown) {
  expect(error).toBeInstanceOf(DatabaseUnavailable);
  const response = error as DatabaseUnavailable;
  expect(response.status).toBe(503);
  expect(response.headers.get("Retry-After")).toBe("30");
  expect(isDatabaseUnavailableError(error)).toBe(true);
}

describe("a database that refuses connections", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ url: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere` });
  });
  afterAll(async () => {
    await handle.close();
  });

  it("answers 503 from the query builders, the relational API, raw SQL and transactions, at once", async () => {
    const log = expectErrorLog();
    const started = Date.now();
    expect503(await rejection(handle.db.select().from(products).limit(1)));
    expect503(await rejection(handle.db.query.products.findFirst()));
    expect503(await rejection(handle.db.execute(sql`select 1`)));
    expect503(await rejection(handle.db.insert(storeSettings).values({ key: "k", value: "v" })));
    expect503(await rejection(handle.db.transaction(async (tx) => tx.select().from(products).limit(1))));
    expect(Date.now() - started).toBeLessThan(5_000);
    // One line for the outage, not one per query.
    expect(log.messages().filter((line) => line.startsWith("Database unavailable"))).toHaveLength(1);
    expect(await handle.ping()).toBe(false);
  });
});

describe("classifying errors", () => {
  it("knows connection failures from query errors", () => {
    expect(isDatabaseUnavailableError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(
      isDatabaseUnavailableError(new Error("Failed query", { cause: Object.assign(new Error("x"), { code: "CONNECTION_CLOSED" }) })),
    ).toBe(true);
    expect(isDatabaseUnavailableError(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailableError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailableError(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailableError(new Error("plain"))).toBe(false);
    expect(isDatabaseUnavailableError(null)).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL cut off and back (TCP proxy)", () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "unavailable");
    proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(scratch.url).port || 5432) });
    handle = await openDatabase({ url: proxy.urlFor(scratch.url) });
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it("fails fast during the outage and the same pool recovers by itself", async () => {
    const log = expectErrorLog();
    const info = vi.spyOn(logger, "info").mockImplementation((() => {}) as never);
    expect(await handle.db.select().from(products).limit(1)).toEqual([]);

    await proxy.cut();
    const started = Date.now();
    expect503(await rejection(handle.db.select().from(products).limit(1)));
    expect503(await rejection(handle.db.transaction(async (tx) => tx.insert(storeSettings).values({ key: "during", value: "outage" }))));
    expect(Date.now() - started).toBeLessThan(5_000);
    // However long it lasts: the pool's reconnection back-off stays short (postgres.js's default grows to 20 s).
    for (let attempt = 0; attempt < 15; attempt++) {
      const before = Date.now();
      expect503(await rejection(handle.db.select().from(products).limit(1)));
      expect(Date.now() - before).toBeLessThan(1_500);
    }

    await proxy.restore();
    const restored = Date.now();
    expect(await handle.db.select().from(products).limit(1)).toEqual([]);
    expect(Date.now() - restored, "back within a second of the server").toBeLessThan(1_500);
    await handle.db.insert(storeSettings).values({ key: "after", value: "outage" });
    const keys = (await scratch.sql`select key from store_settings where key in ('during', 'after')`).map((row) => row.key);
    expect(keys).toEqual(["after"]);
    expect(log.messages().length).toBeGreaterThan(0);
    expect(info.mock.calls.some(([, msg]) => String(msg).startsWith("Database reachable again"))).toBe(true);
    info.mockRestore();
  });

  it("passes other database errors through unchanged", async () => {
    await handle.db.insert(storeSettings).values({ key: "twice", value: "1" });
    const error = await rejection(handle.db.insert(storeSettings).values({ key: "twice", value: "2" }));
    expect(error).not.toBeInstanceOf(DatabaseUnavailable);
    expect(isDatabaseUnavailableError(error)).toBe(false);
  });
});
