import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreServer } from "../e2e/support/store-server";
import { createScratchDatabase, type ScratchDatabase } from "./support/databases";
import { recordFigures } from "./support/figures";
import { BROWSE_PATHS, buy, DroppedConnection, PRODUCT_KEYS, Shopper, type Exchange } from "./support/shopper";
import { prepareDatabase, startStore } from "./support/stores";

/**
 * A mixed browse-and-checkout load against the
 * production build on PostgreSQL, LOAD_SECONDS (60) long at LOAD_CONNECTIONS
 * (50) concurrent shoppers, each with its own cookies. Every shopper browses
 * a few pages, then buys on the offline test payment page, and again until
 * the time is up. No answer may be a 5xx or a dropped connection, and the
 * orders in the database must be exactly the approved payments: none lost,
 * none doubled.
 */

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);

let database: ScratchDatabase;
let store: StoreServer;

beforeAll(async () => {
  database = await createScratchDatabase(undefined, "load");
  await prepareDatabase(database.url);
  store = await startStore(database.url);
});
afterAll(async () => {
  await store?.stop();
  await database?.drop();
});

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

describe(`${SECONDS} s of browsing and buying at ${CONNECTIONS} connections`, () => {
  it("answers every request without a 5xx or a dropped connection, and records one order per approved payment", async () => {
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const serverErrors: string[] = [];
    const dropped: string[] = [];
    const failedPurchases: string[] = [];
    const orderIds = new Set<string>();
    let requests = 0;
    let purchasesStarted = 0;
    const record = (exchange: Exchange) => {
      requests++;
      statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
      latencies.push(exchange.ms);
      if (exchange.status >= 500) serverErrors.push(`${exchange.status} ${exchange.method} ${exchange.path}`);
    };

    const deadline = Date.now() + SECONDS * 1000;
    const shopperLoop = async (index: number) => {
      for (let cycle = 0; Date.now() < deadline; cycle++) {
        const shopper = new Shopper(store.baseURL, record);
        try {
          for (let page = 0; page < 3; page++) {
            await shopper.get(BROWSE_PATHS[(index + cycle * 3 + page) % BROWSE_PATHS.length]);
          }
          if (cycle % 2 === 0) {
            purchasesStarted++;
            const purchase = await buy(shopper, `load-${index}-${cycle}@example.com`, PRODUCT_KEYS[(index + cycle) % PRODUCT_KEYS.length]);
            orderIds.add(purchase.orderId);
          }
        } catch (error) {
          if (error instanceof DroppedConnection) dropped.push(error.message);
          else failedPurchases.push(error instanceof Error ? error.message : String(error));
        }
      }
    };

    const started = Date.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, index) => shopperLoop(index)));
    const elapsedSeconds = (Date.now() - started) / 1000;

    const [counts] = await database.sql`
      select
        (select count(*)::int from orders) as orders,
        (select count(*)::int from test_payments where status = 'approved') as approved,
        (select count(*)::int from payment_attempts where status = 'approved') as approved_attempts,
        (select count(*)::int from (select checkout_token from orders group by 1 having count(*) > 1) d) as doubled_checkouts,
        (select count(*)::int from (select payment_reference from orders group by 1 having count(*) > 1) d) as doubled_payments`;
    const sorted = latencies.sort((a, b) => a - b);
    const fiveXx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    const figures = {
      seconds: Math.round(elapsedSeconds),
      connections: CONNECTIONS,
      requests,
      requestsPerSecond: Math.round(requests / elapsedSeconds),
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      fiveXx,
      dropped: dropped.length,
      failedPurchases: failedPurchases.length,
      purchasesStarted,
      purchasesCompleted: orderIds.size,
      ordersInDatabase: counts.orders,
      approvedPayments: counts.approved,
      doubledOrders: counts.doubled_checkouts + counts.doubled_payments,
      latencyMs: {
        p50: Math.round(percentile(sorted, 50)),
        p95: Math.round(percentile(sorted, 95)),
        p99: Math.round(percentile(sorted, 99)),
      },
    };
    recordFigures("load", figures);

    expect(serverErrors.slice(0, 10)).toEqual([]);
    expect(dropped.slice(0, 10)).toEqual([]);
    expect(failedPurchases.slice(0, 10)).toEqual([]);
    expect(requests).toBeGreaterThan(CONNECTIONS * 4);
    expect(orderIds.size, "every purchase a shopper finished has its own order").toBe(purchasesStarted);
    expect(counts.orders, "orders in the database = orders the shoppers were shown").toBe(orderIds.size);
    expect(counts.approved, "orders = approved payments").toBe(counts.orders);
    expect(counts.approved_attempts).toBe(counts.orders);
    expect(counts.doubled_checkouts + counts.doubled_payments).toBe(0);
  });
});
