import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCartCheckout, getCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { orders, paymentAttempts, products } from "~/db/schema";
import { AMOUNT_MISMATCH_MESSAGE, confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { PAYPAL_DECLINED_MESSAGE } from "~/services/payments/paypal.server";
import { PAYPAL_ORDER_ERRORS } from "~/payments/paypal-order-request.server";
import { action as createOrder } from "~/routes/api.paypal.orders";
import { loader as cancelledPage } from "~/routes/payments.cancelled";
import { fakePayPalSettings, paypalError, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

const customer = checkoutCustomer();

describe.each(testDatabaseKinds())("PayPal payments on %s", (kind) => {
  let database: TestDatabase;
  let fake: FakePayPal;
  let config: ReturnType<typeof parseConfig>;

  beforeAll(async () => {
    fake = await startFakePayPal();
    config = parseConfig({
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakePayPalSettings(fake),
    });
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db.insert(products).values([testProduct("blaze-4899", 4899), testProduct("blaze-4901", 4901)]);
  });
  afterAll(async () => {
    await database?.dispose();
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
  });

  const newCheckout = (quantity = 1): Promise<Checkout> =>
    createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity }], customer);

  async function start(checkout: Checkout) {
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(`payment not started: ${started.status}`);
    return started;
  }

  /** The shopper comes back from PayPal's page: PayPal appends its token and PayerID. */
  const returnVisit = (checkout: Checkout, attemptId: string, orderId: string) =>
    confirmPayment(storeOf(database.db, config), {
      method: "paypal",
      checkoutToken: checkout.token,
      attemptId,
      returnParams: new URLSearchParams({ checkout_token: checkout.token, attempt: attemptId, token: orderId, PayerID: "PAYER12345678" }),
    });

  const ordersOf = (checkout: Checkout) => database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token));

  it("offers PayPal's own driver, creates the order for the server total and records one order on a COMPLETED capture", async () => {
    const checkout = await newCheckout(2);
    expect(checkout.totalCents).toBe(9798);
    const started = await start(checkout);
    expect(started.provider).toBe("paypal");
    expect(started.payment.redirectUrl).toBe(`${fake.url}/checkoutnow?token=${started.payment.reference}`);
    const order = fake.paypal.orders.get(started.payment.reference)!;
    expect(order.purchaseUnit).toMatchObject({
      amount: { currency_code: "USD", value: "97.98" },
      custom_id: started.attemptId,
      reference_id: checkout.token,
    });
    expect(order.returnUrl).toBe(`${TEST_ORIGIN}/checkout-authorized/paypal?checkout_token=${checkout.token}&attempt=${started.attemptId}`);

    // Back before approving: nothing yet.
    expect((await returnVisit(checkout, started.attemptId, order.id)).status).toBe("pending");

    fake.approveOrder(order.id);
    const first = await returnVisit(checkout, started.attemptId, order.id);
    const [second, third] = await Promise.all([
      returnVisit(checkout, started.attemptId, order.id),
      returnVisit(checkout, started.attemptId, order.id),
    ]);
    const fourth = await returnVisit(checkout, started.attemptId, order.id);
    for (const outcome of [first, second, third, fourth]) expect(outcome.status).toBe("paid");

    const rows = await ordersOf(checkout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ totalCents: 9798, paymentMethod: "paypal", paymentProvider: "paypal", paymentReference: order.id });
    expect(fake.apiRequests().filter((request) => request.path.endsWith("/capture"))).not.toHaveLength(0);
    expect(order.status).toBe("COMPLETED");
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("paid");
  });

  it("cancelling at PayPal (without script) comes back to the checkout saying 'Payment cancelled', nothing recorded", async () => {
    const checkout = await newCheckout();
    const started = await start(checkout);
    const order = fake.paypal.orders.get(started.payment.reference)!;
    const cancelPath = `/payments/cancelled?checkout_token=${checkout.token}&attempt=${started.attemptId}`;
    expect(order.cancelUrl).toBe(`${TEST_ORIGIN}${cancelPath}`);
    const left = await fetch(`${fake.url}/checkoutnow/cancel?token=${order.id}`, { method: "POST", redirect: "manual" });
    // PayPal appends its token to the cancel URL.
    expect(left.headers.get("location")?.startsWith(`${TEST_ORIGIN}${cancelPath}`)).toBe(true);
    runtime = testRuntime(database, {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakePayPalSettings(fake),
    });
    const back = (await cancelledPage({
      request: new Request(`${TEST_ORIGIN}${cancelPath}`),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(back.headers.get("Location")).toBe(`/checkout?checkout=${checkout.token}&payment_cancelled=1`);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, started.attemptId));
    expect(attempt?.status).toBe("abandoned");
    expect(await ordersOf(checkout)).toHaveLength(0);
  });

  it("records nothing for a declined instrument and says why", async () => {
    const checkout = await newCheckout();
    const started = await start(checkout);
    fake.paypal.captureOutcome = "instrument-declined";
    fake.approveOrder(started.payment.reference);
    const outcome = await returnVisit(checkout, started.attemptId, started.payment.reference);
    expect(outcome).toMatchObject({ status: "declined", message: PAYPAL_DECLINED_MESSAGE });
    expect(await ordersOf(checkout)).toHaveLength(0);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("leaves the payment pending while PayPal fails, and records it on the next visit", async () => {
    expectErrorLog();
    const checkout = await newCheckout();
    const started = await start(checkout);
    fake.approveOrder(started.payment.reference);
    fake.respondWith((request) =>
      request.path.startsWith("/v2/") ? paypalError(503, "SERVICE_UNAVAILABLE", "Service Unavailable.") : fake.answer(request),
    );
    expect((await returnVisit(checkout, started.attemptId, started.payment.reference)).status).toBe("pending");
    expect(await ordersOf(checkout)).toHaveLength(0);

    fake.respondWith(fake.answer);
    expect((await returnVisit(checkout, started.attemptId, started.payment.reference)).status).toBe("paid");
    expect(await ordersOf(checkout)).toHaveLength(1);
  });

  it("records nothing when PayPal reports another amount than the checkout's", async () => {
    expectErrorLog();
    const checkout = await newCheckout();
    const started = await start(checkout);
    fake.paypal.capturedValueOverride = "1.00";
    fake.approveOrder(started.payment.reference);
    expect(await returnVisit(checkout, started.attemptId, started.payment.reference)).toMatchObject({
      status: "declined",
      message: AMOUNT_MISMATCH_MESSAGE,
    });
    expect(await ordersOf(checkout)).toHaveLength(0);
  });

  it("records nothing when PayPal cannot start the payment", async () => {
    expectErrorLog();
    const checkout = await newCheckout();
    fake.respondWith((request) =>
      request.path.startsWith("/v2/") ? { status: 500, body: "<html>Internal Server Error</html>" } : fake.answer(request),
    );
    expect(await startPayment(storeOf(database.db, config), { checkout, method: "paypal" })).toEqual({
      status: "failed",
      message: "An unexpected error occurred.",
    });
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, checkout.token));
    expect(attempt?.status).toBe("declined");
  });

  describe("the buttons' JSON route (POST /api/paypal/orders)", () => {
    /** The route as the server calls it, on a runtime with `withConfig`: its status and JSON body. */
    const postTo = async (withConfig: typeof config, body: string, headers: Record<string, string>, clientAddress: string) => {
      const response = (await createOrder({
        request: new Request(`${TEST_ORIGIN}/api/paypal/orders`, {
          method: "POST",
          headers: { origin: TEST_ORIGIN, "content-type": "application/json", ...headers },
          body,
        }),
        params: {},
        context: testContext({ ...runtime, ...storeOf(database.db, withConfig) }, { clientAddress }),
      })) as Response;
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const post = (body: string, headers: Record<string, string> = {}) => postTo(config, body, headers, "203.0.113.80");

    it("creates the order for the checkout's own total, whatever amount the client sends", async () => {
      const checkout = await newCheckout(3);
      const answer = await post(JSON.stringify({ checkoutToken: checkout.token, amount: "0.01", totalCents: 1 }));
      expect(answer.status).toBe(200);
      const body = answer.body as { orderId: string; attemptId: string };
      expect(body.attemptId).toMatch(/^pa_/);
      expect(fake.paypal.orders.get(body.orderId)?.purchaseUnit.amount).toMatchObject({ currency_code: "USD", value: "146.97" });
    });

    it("answers clear 4xx errors for bad input and other origins, and creates nothing", async () => {
      const checkout = await newCheckout();
      expect(await post(JSON.stringify({ checkoutToken: checkout.token }), { origin: "https://evil.example" })).toEqual({
        status: 403,
        body: { error: PAYPAL_ORDER_ERRORS.crossOrigin },
      });
      expect(await post("{not json")).toEqual({ status: 400, body: { error: PAYPAL_ORDER_ERRORS.badRequest } });
      expect(await post(JSON.stringify({ checkoutToken: 42 }))).toEqual({ status: 400, body: { error: PAYPAL_ORDER_ERRORS.badRequest } });
      expect(await post(JSON.stringify({ checkoutToken: checkout.token }), { "content-type": "text/plain" })).toMatchObject({
        status: 400,
      });
      expect(await post(JSON.stringify({ checkoutToken: "nosuchcheckout0001" }))).toEqual({
        status: 404,
        body: { error: PAYPAL_ORDER_ERRORS.unknownCheckout },
      });
      expect(fake.paypal.orders.size).toBe(0);
    });

    it("refuses a checkout that is already paid", async () => {
      const checkout = await newCheckout();
      const started = await start(checkout);
      fake.approveOrder(started.payment.reference);
      const paid = await returnVisit(checkout, started.attemptId, started.payment.reference);
      expect(paid.status).toBe("paid");
      const answer = await post(JSON.stringify({ checkoutToken: checkout.token }));
      expect(answer).toMatchObject({ status: 409, body: { error: PAYPAL_ORDER_ERRORS.alreadyPaid } });
    });

    it("says PayPal is unavailable when its keys are not set (the test page is not PayPal)", async () => {
      const checkout = await newCheckout();
      const withoutKeys = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });
      const answer = await postTo(withoutKeys, JSON.stringify({ checkoutToken: checkout.token }), {}, "203.0.113.81");
      expect(answer).toEqual({ status: 503, body: { error: PAYPAL_ORDER_ERRORS.unavailable } });
    });
  });
});
