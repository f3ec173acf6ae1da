import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCookieHeader, readCart } from "~/cart/cart-cookie.server";
import { createCartCheckout, getCheckout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { orders, paymentAttempts, products, promoReservations } from "~/db/schema";
import { startPayment } from "~/payments/start-payment.server";
import { normalizeCustomerEmail } from "~/pricing/promo-redemptions.server";
import { action as stripeApi } from "~/routes/api.stripe";
import { loader as returnPage } from "~/routes/checkout-authorized.$method";
import { loader as cancelledPage } from "~/routes/payments.cancelled";
import { action as testPageAction, loader as testPageLoader } from "~/routes/test-payment.$id";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { checkoutCustomer, loveRubCheckout, LOVE_RUB_KEY, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, postRequest, TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

const customer = checkoutCustomer();

/** A loader's thrown or returned Response, or the data() it answered. */
async function settle<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe.each(testDatabaseKinds())("payment loose ends on %s", (kind) => {
  let database: TestDatabase;
  const config = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db
      .insert(products)
      .values([testProduct("blaze-4899", 4899), testProduct("blaze-4900", 4900), testProduct(LOVE_RUB_KEY, 1599)]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function startTestPayment(cart = [{ productKey: "blaze-4899", quantity: 1 }]) {
    const checkout = await createCartCheckout(storeOf(database.db), cart, customer);
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "stripe" });
    if (started.status !== "started") throw new Error(`not started: ${started.status}`);
    return { checkout, attemptId: started.attemptId, testPaymentId: started.payment.reference };
  }

  it("refuses the test payment page and its Approve with 404 while test mode is off, and writes nothing", async () => {
    runtime = testRuntime(database);
    const { testPaymentId } = await startTestPayment();
    const params = { id: testPaymentId };
    expect(
      await settle(() =>
        testPageLoader({ request: new Request(`${TEST_ORIGIN}/test-payment/${testPaymentId}`), params, context: testContext(runtime) }),
      ),
    ).not.toBeInstanceOf(Response);

    runtime = testRuntime(database, { PAYMENTS_TEST_MODE: "off" });
    const page = await settle(() =>
      testPageLoader({ request: new Request(`${TEST_ORIGIN}/test-payment/${testPaymentId}`), params, context: testContext(runtime) }),
    );
    expect((page as Response).status).toBe(404);
    for (const decision of ["approved", "declined", "cancelled"]) {
      const posted = await settle(() =>
        testPageAction({ request: postRequest(`/test-payment/${testPaymentId}`, { decision }), params, context: testContext(runtime) }),
      );
      expect((posted as Response).status).toBe(404);
    }
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, testPaymentId));
    expect(attempt.status).toBe("started");
  });

  it("answers 415 when /api/stripe gets anything but JSON", async () => {
    runtime = testRuntime(database, { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", PUBLIC_BASE_URL: TEST_ORIGIN });
    const response = await stripeApi({
      request: new Request(`${TEST_ORIGIN}/api/stripe`, {
        method: "POST",
        headers: { "Content-Type": "text/plain", Origin: TEST_ORIGIN, "Sec-Fetch-Site": "same-origin" },
        body: JSON.stringify({ checkoutToken: "abcdefghijkl" }),
      }),
      params: {},
      context: testContext(runtime),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "Send the payload as application/json." });
  });

  it("takes only the paid lines out of the cart: lines added during the payment stay, and a reload takes nothing more", async () => {
    runtime = testRuntime(database);
    const { checkout, attemptId, testPaymentId } = await startTestPayment([{ productKey: "blaze-4899", quantity: 2 }]);
    await decideTestPayment(database.db, testPaymentId, "approved");
    const request = new Request(TEST_ORIGIN);
    const cartCookie = cookieFrom(
      await cartCookieHeader(runtime, request, [
        { productKey: "blaze-4899", quantity: 3 },
        { productKey: "blaze-4900", quantity: 1 },
      ]),
    );
    const path = `/checkout-authorized/stripe?checkout_token=${checkout.token}&attempt=${attemptId}`;
    const first = (await settle(() =>
      returnPage({
        request: new Request(`${TEST_ORIGIN}${path}`, { headers: { Cookie: cartCookie } }),
        params: { method: "stripe" },
        context: testContext(runtime),
      }),
    )) as Response;
    expect(first.status).toBe(302);
    const setCookies = first.headers.getSetCookie();
    const cookies = setCookies.map(cookieFrom).join("; ");
    expect(await readCart(runtime, new Request(TEST_ORIGIN, { headers: { Cookie: cookies } }))).toEqual([
      { productKey: "blaze-4899", quantity: 1 },
      { productKey: "blaze-4900", quantity: 1 },
    ]);

    const again = await settle(() =>
      returnPage({
        request: new Request(`${TEST_ORIGIN}${path}`, { headers: { Cookie: cookies } }),
        params: { method: "stripe" },
        context: testContext(runtime),
      }),
    );
    expect(again).not.toBeInstanceOf(Response);
    expect((again as { data: { kind: string } }).data.kind).toBe("paid");
    expect(await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token))).toHaveLength(1);
  });

  describe("the first-purchase code", () => {
    const loveRub = (email: string) => loveRubCheckout(database.db, email);

    it("normalises the email: case, spaces and a +tag are one customer", () => {
      expect(normalizeCustomerEmail("  Name+2@Example.COM ")).toBe("name@example.com");
      expect(normalizeCustomerEmail("name@example.com")).toBe("name@example.com");
      expect(normalizeCustomerEmail("+only@example.com")).toBe("+only@example.com");
    });

    it("is held by one of two checkouts paying at once, and given back when that payment is declined", async () => {
      runtime = testRuntime(database);
      const [a, b] = await Promise.all([loveRub("Rub.Fan+first@Example.com"), loveRub(" rub.fan+second@example.com")]);
      const results = await Promise.all([
        startPayment(storeOf(database.db, config), { checkout: a, method: "stripe" }),
        startPayment(storeOf(database.db, config), { checkout: b, method: "stripe" }),
      ]);
      const statuses = results.map((result) => result.status).sort();
      expect(statuses).toEqual(["promo-used", "started"]);
      const winner = results[0].status === "started" ? { checkout: a, started: results[0] } : { checkout: b, started: results[1] };
      const loser = winner.checkout === a ? b : a;
      const held = await database.db.select().from(promoReservations).where(eq(promoReservations.email, "rub.fan@example.com"));
      expect(held).toEqual([expect.objectContaining({ code: "LOVERUB10", checkoutToken: winner.checkout.token })]);

      // The same checkout may start again (a retry); the other still may not.
      expect((await startPayment(storeOf(database.db, config), { checkout: winner.checkout, method: "paypal" })).status).toBe("started");
      expect((await startPayment(storeOf(database.db, config), { checkout: loser, method: "stripe" })).status).toBe("promo-used");

      // Cancelling every payment of the holder gives the code back.
      const attempts = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, winner.checkout.token));
      for (const attempt of attempts) {
        await cancelledPage({
          request: new Request(`${TEST_ORIGIN}/payments/cancelled?checkout_token=${winner.checkout.token}&attempt=${attempt.id}`),
          params: {},
          context: testContext(runtime),
        });
      }
      expect(await database.db.select().from(promoReservations).where(eq(promoReservations.email, "rub.fan@example.com"))).toEqual([]);
      expect((await startPayment(storeOf(database.db, config), { checkout: loser, method: "stripe" })).status).toBe("started");
    });
  });

  it("a cancel on the test page comes back to the checkout saying so, with the attempt abandoned and nothing recorded", async () => {
    runtime = testRuntime(database);
    const { checkout, attemptId, testPaymentId } = await startTestPayment();
    const posted = (await testPageAction({
      request: postRequest(`/test-payment/${testPaymentId}`, { decision: "cancelled" }),
      params: { id: testPaymentId },
      context: testContext(runtime),
    })) as Response;
    const cancelPath = posted.headers.get("Location")!;
    expect(cancelPath).toBe(`/payments/cancelled?checkout_token=${checkout.token}&attempt=${attemptId}`);
    const back = (await cancelledPage({
      request: new Request(`${TEST_ORIGIN}${cancelPath}`),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(back.headers.get("Location")).toBe(`/checkout?checkout=${checkout.token}&payment_cancelled=1`);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(attempt.status).toBe("abandoned");
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("the 'Payment not finished' page can check again and promises an email", async () => {
    runtime = testRuntime(database);
    const { checkout, attemptId } = await startTestPayment();
    const path = `/checkout-authorized/stripe?checkout_token=${checkout.token}&attempt=${attemptId}`;
    const result = (await returnPage({
      request: new Request(`${TEST_ORIGIN}${path}`),
      params: { method: "stripe" },
      context: testContext(runtime),
    })) as unknown as {
      data: { kind: string; query: [string, string][] };
    };
    expect(result.data).toEqual({
      kind: "pending",
      checkoutPath: `/checkout?checkout=${checkout.token}`,
      query: [
        ["checkout_token", checkout.token],
        ["attempt", attemptId],
      ],
    });
  });
});
