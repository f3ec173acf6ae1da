import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createCartCheckout } from "~/checkout/checkout.server";
import { products } from "~/db/schema";
import { NEWSLETTER_MESSAGES } from "~/mailing-list/newsletter";
import { action as newsletterAction } from "~/routes/newsletter";
import { action as startPaymentAction } from "~/routes/payments.start";
import { action as seasoningCheckoutAction } from "~/routes/custom-product-checkout";
import { SHIPPING_RATE_LIMITED_MESSAGE } from "~/checkout/shipping-quote.server";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { formData, TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * The form routes refuse with 429, Retry-After and a readable
 * message once the client address has used its budget (counted in the database).
 */
type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<unknown>;
type DataResult<T> = { data: T; init: ResponseInit | null };

const customer = checkoutCustomer();

const post = (path: string, values: Record<string, string | number>) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData(values), headers: { Origin: TEST_ORIGIN } });

describe.each(testDatabaseKinds())("rate-limited form routes on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db.insert(products).values([testProduct("blaze-4899", 4899), testProduct("custom_product-LOVE-RUB-001", 1599)]);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("newsletter: 429 with Retry-After and the form's message once an address has signed up too often", async () => {
    const address = "198.51.100.40";
    const signUp = async (i: number) =>
      (await (newsletterAction as Route)({
        request: post("/newsletter", { email: `reader${i}@example.com`, source: "footer", mode: "fetch" }),
        params: {},
        context: testContext(runtime, { clientAddress: address }),
      })) as DataResult<{ status: string; message: string }>;
    for (let i = 0; i < RATE_LIMITS.newsletter.limit; i += 1) expect((await signUp(i)).data.status).toBe("subscribed");
    const limited = await signUp(99);
    expect(limited.init?.status).toBe(429);
    expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.data).toMatchObject({ status: "rate-limited", message: NEWSLETTER_MESSAGES.rateLimited });
  });

  it("payments: /payments/start sends the shopper back to the checkout with the rate-limit message", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const start = async () =>
      (await (startPaymentAction as Route)({
        request: post("/payments/start", { checkout: checkout.token, method: "stripe" }),
        params: {},
        context: testContext(runtime, { clientAddress: "198.51.100.41" }),
      })) as Response;
    for (let i = 0; i < RATE_LIMITS.paymentStart.limit; i += 1) {
      expect((await start()).headers.get("Location")).not.toContain("payment_error");
    }
    const limited = await start();
    expect(limited.status).toBe(303);
    expect(limited.headers.get("Location")).toContain("payment_error=rate-limited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("shipping quotes: the seasoning checkout shows the rate-limit message with 429", async () => {
    const quote = async () =>
      (await (seasoningCheckoutAction as Route)({
        request: post("/custom-product-checkout", { intent: "update", quantity: 3, ...customer }),
        params: {},
        context: testContext(runtime, { clientAddress: "198.51.100.42" }),
      })) as DataResult<{ shippingError: string | null }>;
    for (let i = 0; i < RATE_LIMITS.shippingQuote.limit; i += 1) expect((await quote()).data.shippingError).toBeNull();
    const limited = await quote();
    expect(limited.init?.status).toBe(429);
    expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.data.shippingError).toBe(SHIPPING_RATE_LIMITED_MESSAGE);
  });
});
