import type { AppLoadContext } from "@remix-run/node";
import { count } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cartCookieHeader } from "~/cart/cart-cookie.server";
import { checkouts, products } from "~/db/schema";
import { action as checkoutAction } from "~/routes/checkout";
import { action as buyNowAction } from "~/routes/single-product-checkout";
import type { StoreRuntime } from "~/store-runtime";
import { CHECKOUT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, postRequest, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * Issue 40: POST /checkout and BUY NOW recorded a row each, without limit (one client added 200 in a
 * second). Now a form sent again gives back the browser's own pending checkout, and an address records
 * at most RATE_LIMITS.checkoutCreate in a window (the clean-up of the rest: abandoned-checkouts.test.ts).
 */
type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<unknown>;
type DataResult<T> = { data: T; init: ResponseInit | null };

let runtime: StoreRuntime;
const customer = checkoutCustomer({ email: "ada.creation@example.com" });

describe.each(testDatabaseKinds())("recording checkouts on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db.insert(products).values([testProduct("blaze-4899", 4899), testProduct("blaze-99900", 99_900)]);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const checkoutRows = async () => (await database.db.select({ value: count() }).from(checkouts))[0].value;
  const tokenOf = (response: Response) => new URL(response.headers.get("Location")!, TEST_ORIGIN).searchParams.get("checkout");

  async function cartCookie(): Promise<string> {
    return cookieFrom(await cartCookieHeader(runtime, postRequest("/cart", {}), [{ productKey: "blaze-4899", quantity: 1 }]));
  }
  const proceedToPayment = (clientAddress: string, cookie: string, details = customer) =>
    (checkoutAction as Route)({
      request: postRequest("/checkout", { ...details }, cookie),
      params: {},
      context: testContext(runtime, { clientAddress }),
    });
  const buyNow = (clientAddress: string, details = customer) =>
    (buyNowAction as Route)({
      request: postRequest("/single-product-checkout", { intent: "pay", product: "blaze-99900", quantity: 1, ...details }),
      params: {},
      context: testContext(runtime, { clientAddress }),
    });

  describe("the rate limit", () => {
    it("refuses the cart's Proceed to Payment past the address's limit with 429 and records nothing", async () => {
      const cookie = await cartCookie();
      for (let sent = 0; sent < RATE_LIMITS.checkoutCreate.limit; sent++) {
        // A new email each time: a different checkout, not the same one again.
        const response = (await proceedToPayment("198.51.100.60", cookie, { ...customer, email: `ada${sent}@example.com` })) as Response;
        expect(response.status).toBe(302);
      }
      const before = await checkoutRows();
      const limited = (await proceedToPayment("198.51.100.60", cookie)) as DataResult<{ formError: string }>;
      expect(limited.init?.status).toBe(429);
      expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
      expect(limited.data.formError).toBe(CHECKOUT_RATE_LIMITED_MESSAGE);
      expect(await checkoutRows()).toBe(before);
      // Another address is not held back.
      expect(((await proceedToPayment("198.51.100.61", cookie)) as Response).status).toBe(302);
    });

    it("refuses BUY NOW past the address's limit with 429 and records nothing", async () => {
      for (let sent = 0; sent < RATE_LIMITS.checkoutCreate.limit; sent++) {
        expect(((await buyNow("198.51.100.62")) as Response).status).toBe(302);
      }
      const before = await checkoutRows();
      const limited = (await buyNow("198.51.100.62")) as DataResult<{ formError: string; values: Record<string, string> }>;
      expect(limited.init?.status).toBe(429);
      expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
      expect(limited.data).toMatchObject({ formError: CHECKOUT_RATE_LIMITED_MESSAGE, values: { email: customer.email } });
      expect(await checkoutRows()).toBe(before);
    });
  });

  describe("a form sent again", () => {
    it("gives back the browser's own pending checkout when nothing changed, and records a new one when something did", async () => {
      const cart = await cartCookie();
      const first = (await proceedToPayment("198.51.100.63", cart)) as Response;
      const withDetails = `${cart}; ${cookieFrom(first.headers.get("Set-Cookie"))}`;
      const before = await checkoutRows();

      const again = (await proceedToPayment("198.51.100.63", withDetails)) as Response;
      expect(tokenOf(again)).toBe(tokenOf(first));
      expect(await checkoutRows()).toBe(before);

      const changed = (await proceedToPayment("198.51.100.63", withDetails, { ...customer, city: "Dallas" })) as Response;
      expect(tokenOf(changed)).not.toBe(tokenOf(first));
      expect(await checkoutRows()).toBe(before + 1);
      // Without the browser's cookie, the same details are someone else's checkout.
      expect(tokenOf((await proceedToPayment("198.51.100.63", cart)) as Response)).not.toBe(tokenOf(first));
    });
  });
});
