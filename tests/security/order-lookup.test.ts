import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { orders } from "~/db/schema";
import { loader as lastOrderLoader } from "~/routes/checkout-confirmation";
import { loader as orderStatusLoader, ORDER_NOT_FOUND } from "~/routes/order-status._index";
import { lastOrderCookieHeader } from "~/orders/last-order-cookie.server";
import { ORDER_LOOKUP_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { testOrder } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * The order lookup cannot be used to enumerate orders, and a
 * tampered purchase cookie (the last order of this browser) is ignored.
 */
type Lookup = { data: { order: { orderId: string } | null; error: string | null }; init: ResponseInit | null };

const ORDER_ID = "K7M2P9QXWZ";

describe.each(testDatabaseKinds())("order lookup (%s)", (kind) => {
  let database: TestDatabase;
  const order = testOrder({ orderId: ORDER_ID });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db.insert(orders).values(order);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const lookUp = async (id: string, clientAddress: string) =>
    (await orderStatusLoader({
      request: new Request(`${TEST_ORIGIN}/order-status?id=${encodeURIComponent(id)}`),
      params: {},
      context: testContext(runtime, { clientAddress }),
    })) as unknown as Lookup;

  it("shows an order only for its full Order ID, and never the address, email or phone", async () => {
    const found = await lookUp(ORDER_ID.toLowerCase(), "198.51.100.30");
    expect(found.data.order?.orderId).toBe(ORDER_ID);
    const shown = JSON.stringify(found.data.order);
    const { email, phone, address, postalCode, lastName } = order.customer;
    for (const secret of [email, phone, address, postalCode, lastName]) expect(shown).not.toContain(secret);
  });

  it("answers a malformed id, a near miss and an unknown id the same way", async () => {
    const answers = await Promise.all(
      [ORDER_ID.slice(0, 9), `${ORDER_ID.slice(0, 9)}2`, "ZZZZZZZZZZ", "'; select 1 --", "x".repeat(40)].map((id) =>
        lookUp(id, "198.51.100.31"),
      ),
    );
    for (const miss of answers) {
      expect(miss.init?.status).toBe(404);
      expect(miss.data).toMatchObject({ order: null, error: ORDER_NOT_FOUND });
    }
  });

  it("limits lookups per client address: 429 with Retry-After and a readable message, other addresses unaffected", async () => {
    for (let i = 0; i < RATE_LIMITS.orderLookup.limit; i += 1) {
      expect((await lookUp(`GUESS${String(i).padStart(5, "2")}`, "198.51.100.32")).init?.status).toBe(404);
    }
    const limited = await lookUp(ORDER_ID, "198.51.100.32");
    expect(limited.init?.status).toBe(429);
    expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.data).toMatchObject({ order: null, error: ORDER_LOOKUP_RATE_LIMITED_MESSAGE });
    expect((await lookUp(ORDER_ID, "198.51.100.33")).data.order?.orderId).toBe(ORDER_ID);
  });

  it("counts every address of one IPv6 /64 against one budget: 100 addresses, not 100 budgets", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 100; i += 1) {
      const address = `2001:db8:40:6400:${i.toString(16)}::${i.toString(16)}`;
      statuses.push((await lookUp(`GUESS${String(i).padStart(5, "3")}`, address)).init?.status ?? 200);
    }
    expect(statuses.filter((status) => status === 404)).toHaveLength(RATE_LIMITS.orderLookup.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - RATE_LIMITS.orderLookup.limit);
    // The next /64 is someone else.
    expect((await lookUp(ORDER_ID, "2001:db8:40:6401::1")).data.order?.orderId).toBe(ORDER_ID);
  });

  it("ignores a tampered or forged last-order cookie on the confirmation page", async () => {
    const request = (cookie: string) => new Request(`${TEST_ORIGIN}/checkout-confirmation`, { headers: { Cookie: cookie } });
    const genuine = cookieFrom(await lastOrderCookieHeader(runtime, request(""), ORDER_ID));
    const show = async (cookie: string) =>
      (
        (await lastOrderLoader({ request: request(cookie), params: {}, context: testContext(runtime) })) as {
          order: { orderId: string } | null;
        }
      ).order;
    expect((await show(genuine))?.orderId).toBe(ORDER_ID);

    const [name, value] = genuine.split("=");
    const [payload, signature] = decodeURIComponent(value).split(".");
    const otherPayload = Buffer.from(JSON.stringify("ZZZZZZZZZZ")).toString("base64");
    for (const bad of [
      `${name}=${encodeURIComponent(`${otherPayload}.${signature}`)}`,
      `${name}=${encodeURIComponent(`${payload}.${signature.slice(0, -2)}xx`)}`,
      `${name}=${encodeURIComponent(payload)}`,
      `${name}=%E0%A4%A`,
      `${name}=${"A".repeat(5000)}`,
    ]) {
      expect(await show(bad)).toBeNull();
    }
  });
});
