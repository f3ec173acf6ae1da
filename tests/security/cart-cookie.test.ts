import type { StoreRuntime } from "~/store-runtime";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyCartChange } from "~/cart/cart-actions.server";
import { cartCookieHeader, readCart } from "~/cart/cart-cookie.server";
import { products } from "~/db/schema";
import { testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { cookieFrom, TEST_ORIGIN, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

const withCookie = (cookie: string) => new Request(`${TEST_ORIGIN}/cart`, { headers: { Cookie: cookie } });

describe("the cart cookie cannot be poisoned", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    runtime = testRuntime(database);
    await database.db.insert(products).values(testProduct("blaze-4900", 4900));
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("restores only lines of known products, with keys free of control characters", async () => {
    const lines = JSON.stringify([
      { productKey: "blaze-\u0000x", quantity: 1 },
      { productKey: "blaze-nope", quantity: 2 },
      { productKey: "blaze-4900", quantity: 3 },
    ]);
    const result = await applyCartChange(database.db, [], { intent: "restore", lines });
    expect(result).toEqual({ ok: true, cart: [{ productKey: "blaze-4900", quantity: 3 }] });
  });

  it("drops a signed cookie whose lines hold a NUL, instead of failing every page", async () => {
    const request = new Request(`${TEST_ORIGIN}/cart`);
    const poisoned = cookieFrom(await cartCookieHeader(runtime, request, [{ productKey: "blaze-\u0000x", quantity: 1 }]));
    expect(await readCart(runtime, withCookie(poisoned))).toEqual([]);
  });

  it("reads any cookie header without throwing, and keeps only well-formed lines", async () => {
    await fc.assert(
      // Any value a Cookie header can carry: printable ASCII (a browser cannot send control characters there).
      fc.asyncProperty(fc.stringMatching(/^[\x20-\x7e]{0,300}$/), async (value) => {
        const cart = await readCart(runtime, withCookie(`cart=${value}`));
        expect(Array.isArray(cart)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
