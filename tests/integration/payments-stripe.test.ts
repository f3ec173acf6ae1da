import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCartCheckout, getCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { emailOutbox, orders, paymentAttempts, products } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { DISCOUNT_TAKEN_MESSAGE } from "~/payments/messages";
import { listMoneyProblems } from "~/payments/money-problems.server";
import { startPayment } from "~/payments/start-payment.server";
import { action as stripeApi } from "~/routes/api.stripe";
import { action as stripeWebhook } from "~/routes/api.stripe_.webhook";
import { loader as cancelledPage } from "~/routes/payments.cancelled";
import { paymentProvidersFor } from "~/services/payments/index.server";
import { createStripeProvider, stripeOptionsFromConfig } from "~/services/payments/stripe.server";
import { startFakeStripe, stripeError, type FakeStripe } from "../fakes/stripe";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, loveRubCheckout, LOVE_RUB_KEY, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

const WEBHOOK_SECRET = "whsec_integration_secret";
const customer = checkoutCustomer({ email: "ada.stripe@example.com" });

describe.each(testDatabaseKinds())("Stripe card payments against the fake Stripe on %s", (kind) => {
  let database: TestDatabase;
  let fake: FakeStripe;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeStripe();
    database = await createTestDatabase(kind);
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      STRIPE_SECRET_KEY: "sk_test_integration",
      STRIPE_PUBLISHABLE_KEY: "pk_test_integration",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    };
    await database.db
      .insert(products)
      .values([testProduct("blaze-5001", 249_999), testProduct("blaze-5002", 5_000), testProduct(LOVE_RUB_KEY, 1599)]);
  });
  beforeEach(() => {
    runtime = testRuntime(database, env);
    fake.respondWith(fake.answerLikeStripe);
  });
  afterAll(async () => {
    await database?.dispose();
    await fake?.close();
  });

  const config = () => parseConfig(env);
  const newCheckout = () =>
    createCartCheckout(
      storeOf(database.db),
      [
        { productKey: "blaze-5001", quantity: 2 },
        { productKey: "blaze-5002", quantity: 1 },
      ],
      customer,
    );

  function callApi(body: unknown, headers: Record<string, string> = { Origin: TEST_ORIGIN, "Sec-Fetch-Site": "same-origin" }) {
    const request = new Request(`${TEST_ORIGIN}/api/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return stripeApi({ request, params: {}, context: testContext(runtime) });
  }

  async function startCardPayment(checkout: Checkout) {
    const response = await callApi({ checkoutToken: checkout.token, amount: 1 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { clientSecret: string; attemptId: string; returnUrl: string; publishableKey: string };
    const intentId = body.clientSecret.split("_secret_")[0]!;
    return { ...body, intentId };
  }

  function deliverWebhook(type: string, object: object, secret = WEBHOOK_SECRET) {
    const { payload, signature } = fake.signedEvent(type, object, secret);
    return postWebhook(payload, signature);
  }

  function postWebhook(payload: string, signature: string) {
    const request = new Request(`${TEST_ORIGIN}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
      body: payload,
    });
    return stripeWebhook({ request, params: {}, context: testContext(runtime) });
  }

  const returnVisit = (checkout: Checkout, attemptId: string, extra: Record<string, string> = {}) =>
    confirmPayment(storeOf(database.db, config()), {
      method: "stripe",
      checkoutToken: checkout.token,
      attemptId,
      returnParams: new URLSearchParams({ checkout_token: checkout.token, attempt: attemptId, ...extra }),
    });

  async function ordersOf(checkout: Checkout) {
    return database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token));
  }

  it("offers only Stripe for cards once its keys are set (no test page)", () => {
    const options = paymentProvidersFor(config(), database.db).options();
    expect(options).toEqual([expect.objectContaining({ method: "stripe", provider: "stripe", isTest: false })]);
  });

  it("charges the server total whatever amount the browser sends, and records one order for return, webhook and replays", async () => {
    const checkout = await newCheckout();
    expect(checkout.totalCents).toBe(504_998);
    const { intentId, attemptId, returnUrl, publishableKey } = await startCardPayment(checkout);

    const intent = fake.paymentIntents.get(intentId)!;
    expect(intent).toMatchObject({ amount: 504_998, currency: "usd", metadata: { checkout_token: checkout.token, attempt_id: attemptId } });
    expect(fake.requests[0]?.headers["idempotency-key"]).toBe(attemptId);
    expect(publishableKey).toBe("pk_test_integration");
    expect(returnUrl).toBe(`${TEST_ORIGIN}/checkout-authorized/stripe?checkout_token=${checkout.token}&attempt=${attemptId}`);

    // Before the card is confirmed, a return visit records nothing.
    expect((await returnVisit(checkout, attemptId)).status).toBe("pending");
    fake.succeedPaymentIntent(intentId);

    const extra = { payment_intent: intentId, payment_intent_client_secret: intent.client_secret, redirect_status: "succeeded" };
    const first = await returnVisit(checkout, attemptId, extra);
    expect(first.status).toBe("paid");
    const second = await returnVisit(checkout, attemptId, extra);
    const webhook = await deliverWebhook("payment_intent.succeeded", intent);
    const replay = await deliverWebhook("payment_intent.succeeded", intent);
    expect([webhook.status, replay.status]).toEqual([200, 200]);
    const [third, fourth] = await Promise.all([returnVisit(checkout, attemptId, extra), returnVisit(checkout, attemptId, extra)]);

    const rows = await ordersOf(checkout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ totalCents: 504_998, paymentMethod: "stripe", paymentProvider: "stripe", paymentReference: intentId });
    for (const outcome of [second, third, fourth]) expect(outcome).toMatchObject({ status: "paid", order: { orderId: rows[0]!.orderId } });
    const emails = await database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, customer.email));
    expect(emails.filter((email) => email.textBody.includes(rows[0]!.orderId))).toHaveLength(1);
  });

  it("records the order from the signed webhook alone when the shopper never comes back", async () => {
    const checkout = await newCheckout();
    const { intentId, attemptId } = await startCardPayment(checkout);
    const intent = fake.succeedPaymentIntent(intentId);

    const response = await deliverWebhook("payment_intent.succeeded", intent);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ handled: true, outcome: "paid" });
    const rows = await ordersOf(checkout);
    expect(rows).toHaveLength(1);
    // The shopper comes back later: the same order.
    expect(await returnVisit(checkout, attemptId)).toMatchObject({ status: "paid", order: { orderId: rows[0]!.orderId } });
    expect(await ordersOf(checkout)).toHaveLength(1);
  });

  it("keeps a payment made while the database was down: the webhook answers 503, Stripe's retry records it", async () => {
    const checkout = await newCheckout();
    const { intentId } = await startCardPayment(checkout);
    const intent = fake.succeedPaymentIntent(intentId);
    const { payload, signature } = fake.signedEvent("payment_intent.succeeded", intent, WEBHOOK_SECRET);

    expectErrorLog();
    const unreachable = new Proxy({} as StoreRuntime["db"], {
      get() {
        throw new Error("database unreachable");
      },
    });
    runtime = { ...testRuntime(database, env), db: unreachable };
    expect((await postWebhook(payload, signature)).status).toBe(503);
    expect(await ordersOf(checkout)).toHaveLength(0);

    runtime = testRuntime(database, env);
    expect((await postWebhook(payload, signature)).status).toBe(200);
    expect(await ordersOf(checkout)).toHaveLength(1);
  });

  it("refuses webhooks with a bad signature and ignores other events", async () => {
    const checkout = await newCheckout();
    const { intentId } = await startCardPayment(checkout);
    const intent = fake.succeedPaymentIntent(intentId);

    expect((await deliverWebhook("payment_intent.succeeded", intent, "whsec_wrong")).status).toBe(400);
    expect((await postWebhook(JSON.stringify({ type: "payment_intent.succeeded", data: { object: intent } }), "")).status).toBe(400);
    expect(await ordersOf(checkout)).toHaveLength(0);
    const other = await deliverWebhook("charge.refunded", { id: "ch_1", object: "charge" });
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ handled: false });
    const unknown = await deliverWebhook("payment_intent.succeeded", { ...intent, id: "pi_notours" });
    expect(unknown.status).toBe(200);
  });

  it("records nothing for a declined card, and says why", async () => {
    const checkout = await newCheckout();
    const { intentId, attemptId } = await startCardPayment(checkout);
    fake.declinePaymentIntent(intentId);
    expect(await returnVisit(checkout, attemptId)).toMatchObject({ status: "declined", message: "Your card was declined." });
    expect(await ordersOf(checkout)).toHaveLength(0);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("leaves the payment pending and records nothing while Stripe answers errors", async () => {
    expectErrorLog();
    const checkout = await newCheckout();
    const { intentId, attemptId } = await startCardPayment(checkout);
    const intent = fake.succeedPaymentIntent(intentId);

    fake.respondWith(() => stripeError(400, "invalid_request_error", "Something is off."));
    expect((await returnVisit(checkout, attemptId)).status).toBe("pending");
    fake.respondWith(200, "{garbage");
    expect((await returnVisit(checkout, attemptId)).status).toBe("pending");
    // Stripe's own event cannot be confirmed either: 503 so that Stripe retries.
    expect((await deliverWebhook("payment_intent.succeeded", intent)).status).toBe(503);
    expect(await ordersOf(checkout)).toHaveLength(0);

    fake.respondWith(fake.answerLikeStripe);
    expect((await returnVisit(checkout, attemptId)).status).toBe("paid");
  });

  it("records nothing when Stripe reports another amount or currency than the checkout's", async () => {
    expectErrorLog();
    const checkout = await newCheckout();
    const { intentId, attemptId } = await startCardPayment(checkout);
    const intent = fake.succeedPaymentIntent(intentId);
    intent.amount_received = 100;
    expect((await returnVisit(checkout, attemptId)).status).toBe("declined");
    intent.amount_received = intent.amount;
    intent.currency = "eur";
    expect((await deliverWebhook("payment_intent.succeeded", intent)).status).toBe(200);
    expect(await ordersOf(checkout)).toHaveLength(0);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(attempt?.status).toBe("declined");
  });

  it("pays without script through a Checkout Session on Stripe's hosted page", async () => {
    const checkout = await newCheckout();
    const started = await startPayment(storeOf(database.db, config()), { checkout, method: "stripe" });
    if (started.status !== "started") throw new Error(started.status);
    expect(started.payment.redirectUrl).toBe(`${fake.url}/c/pay/${started.payment.reference}`);
    const session = fake.checkoutSessions.get(started.payment.reference)!;
    expect(session).toMatchObject({ amount_total: 504_998, currency: "usd", metadata: { checkout_token: checkout.token } });

    const hosted = await fetch(started.payment.redirectUrl);
    expect(await hosted.text()).toContain("$5049.98");
    const paid = await fetch(`${started.payment.redirectUrl}/pay`, { method: "POST", redirect: "manual" });
    const back = new URL(paid.headers.get("location")!);
    expect(back.searchParams.get("session_id")).toBe(session.id);
    expect(back.searchParams.get("attempt")).toBe(started.attemptId);

    expect((await returnVisit(checkout, started.attemptId, { session_id: session.id })).status).toBe("paid");
    expect((await deliverWebhook("checkout.session.completed", session)).status).toBe(200);
    expect((await ordersOf(checkout))[0]).toMatchObject({ paymentReference: session.id, totalCents: 504_998 });
    expect(await ordersOf(checkout)).toHaveLength(1);
  });

  it("cancelling on Stripe's hosted page comes back to the checkout saying 'Payment cancelled', nothing recorded", async () => {
    const checkout = await newCheckout();
    const started = await startPayment(storeOf(database.db, config()), { checkout, method: "stripe" });
    if (started.status !== "started") throw new Error(started.status);
    const session = fake.checkoutSessions.get(started.payment.reference)!;
    const cancelPath = `/payments/cancelled?checkout_token=${checkout.token}&attempt=${started.attemptId}`;
    expect(session.cancel_url).toBe(`${TEST_ORIGIN}${cancelPath}`);
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

  describe("a cancelled Checkout Session", () => {
    const cancel = async (checkout: Checkout, attemptId: string) =>
      (await cancelledPage({
        request: new Request(`${TEST_ORIGIN}/payments/cancelled?checkout_token=${checkout.token}&attempt=${attemptId}`),
        params: {},
        context: testContext(runtime),
      })) as Response;
    const discountedOrders = async (email: string) =>
      (await database.db.select().from(orders)).filter((order) => order.customer.email === email && order.discountCents > 0);

    /** The shopper cancels a LOVERUB10 checkout at Stripe, then buys with the code in a second checkout. */
    async function cancelledThenBoughtAgain(email: string) {
      const first = await loveRubCheckout(database.db, email);
      const abandoned = await startPayment(storeOf(database.db, config()), { checkout: first, method: "stripe" });
      if (abandoned.status !== "started") throw new Error(abandoned.status);
      expect((await cancel(first, abandoned.attemptId)).headers.get("Location")).toMatch(/payment_cancelled=1/);
      const session = fake.checkoutSessions.get(abandoned.payment.reference)!;

      const second = await loveRubCheckout(database.db, email);
      const bought = await startPayment(storeOf(database.db, config()), { checkout: second, method: "stripe" });
      if (bought.status !== "started") throw new Error(bought.status);
      fake.completeCheckoutSession(bought.payment.reference);
      expect((await returnVisit(second, bought.attemptId)).status).toBe("paid");
      return { first, abandoned, session };
    }

    it("is expired at Stripe when the shopper cancels, so it can no longer be paid: no second discounted order", async () => {
      const email = "rub.expired@example.com";
      const { first, abandoned, session } = await cancelledThenBoughtAgain(email);
      expect(session.status).toBe("expired");
      const paid = await fetch(`${abandoned.payment.redirectUrl}/pay`, { method: "POST", redirect: "manual" });
      expect(paid.status).toBe(303);
      expect(session).toMatchObject({ status: "expired", payment_status: "unpaid" });
      expect((await returnVisit(first, abandoned.attemptId)).status).toBe("declined");
      expect(await discountedOrders(email)).toHaveLength(1);
    });

    it("refunds at once a payment that went through anyway after its discount went to another order, and says so", async () => {
      const email = "rub.late@example.com";
      const { first, abandoned, session } = await cancelledThenBoughtAgain(email);
      // Paid at Stripe in the instant before it expired.
      session.status = "open";
      fake.completeCheckoutSession(session.id);
      expectErrorLog();
      expect(await returnVisit(first, abandoned.attemptId)).toEqual({
        status: "declined",
        message: DISCOUNT_TAKEN_MESSAGE,
        checkoutPath: expect.any(String),
      });
      // A second visit (or Stripe's webhook) says the same, refunds nothing more and records nothing.
      expect((await returnVisit(first, abandoned.attemptId)).status).toBe("declined");
      expect(await ordersOf(first)).toHaveLength(0);
      expect(await discountedOrders(email)).toHaveLength(1);
      expect(fake.refunds.get(session.payment_intent!)).toMatchObject({ status: "succeeded" });
      expect(fake.requests.filter((request) => request.path === "/v1/refunds")).toHaveLength(1);
      const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, abandoned.attemptId));
      expect(attempt).toMatchObject({ status: "approved", refundReason: "discount-taken", refundReference: expect.any(String) });
      expect((await listMoneyProblems(database.db)).chargedTwice).toContainEqual(
        expect.objectContaining({ attemptId: abandoned.attemptId, why: "discount-taken" }),
      );
    });
  });

  it("refunds a paid PaymentIntent in full, once, whether the card or the hosted page paid it", async () => {
    const provider = createStripeProvider(stripeOptionsFromConfig(config()));
    const checkout = await newCheckout();
    const { attemptId, intentId } = await startCardPayment(checkout);
    fake.succeedPaymentIntent(intentId);
    const refund = { attemptId, reference: intentId, paymentId: intentId, amountCents: checkout.totalCents };
    expect(await provider.refundPayment!(refund)).toMatchObject({ status: "refunded" });
    // A retried click carries the same idempotency key: Stripe answers the same refund.
    expect(await provider.refundPayment!(refund)).toMatchObject({ status: "refunded" });
    expect(fake.refunds.get(intentId)).toMatchObject({ amount: checkout.totalCents, status: "succeeded" });
    expect(await provider.refundPayment!({ ...refund, attemptId: "pa_another000000000" })).toMatchObject({ status: "refused" });
  });

  describe("POST /api/stripe refuses what it cannot do, never with a 500", () => {
    it("bad input: 400", async () => {
      expect((await callApi("{not json")).status).toBe(400);
      expect((await callApi({ amount: 100 })).status).toBe(400);
      expect((await callApi({ checkoutToken: 42 })).status).toBe(400);
    });

    it("an unknown checkout: 404; a paid one: 409", async () => {
      expect((await callApi({ checkoutToken: "nope" })).status).toBe(404);
      const checkout = await newCheckout();
      const { intentId, attemptId } = await startCardPayment(checkout);
      fake.succeedPaymentIntent(intentId);
      expect((await returnVisit(checkout, attemptId)).status).toBe("paid");
      const again = await callApi({ checkoutToken: checkout.token });
      expect(again.status).toBe(409);
    });

    it("a cross-site post: 403", async () => {
      const checkout = await newCheckout();
      expect((await callApi({ checkoutToken: checkout.token }, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
      expect((await callApi({ checkoutToken: checkout.token }, { Origin: "https://evil.example" })).status).toBe(403);
      const [{ value }] = await database.db
        .select({ value: count() })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.checkoutToken, checkout.token));
      expect(value).toBe(0);
    });

    it("Stripe not configured: 404", async () => {
      runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
      const checkout = await newCheckout();
      expect((await callApi({ checkoutToken: checkout.token })).status).toBe(404);
    });

    it("Stripe failing: a JSON 502 whose message the popup shows after 'Payment failed: '", async () => {
      expectErrorLog();
      const checkout = await newCheckout();
      fake.respondWith(() => stripeError(500, "api_error", "Stripe is down."));
      const response = await callApi({ checkoutToken: checkout.token });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: "An unexpected error occurred." });
    });
  });
});
