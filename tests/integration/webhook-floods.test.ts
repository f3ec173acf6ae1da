import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCartCheckout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { products } from "~/db/schema";
import { logger } from "~/observability/logger.server";
import { startPayment } from "~/payments/start-payment.server";
import { action as authorizeNetWebhook } from "~/routes/api.authorizenet.webhook";
import { action as paypalWebhook } from "~/routes/api.paypal.webhook";
import { action as stripeWebhook } from "~/routes/api.stripe_.webhook";
import type { StoreRuntime } from "~/store-runtime";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { testClock } from "../support/test-clock";
import { FAKE_ANET_SIGNATURE_KEY, fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { deliverWebhook, FAKE_PAYPAL_WEBHOOK_ID, fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

/**
 * Issue 40: forged webhooks must not make the store call the provider without limit. PayPal can only be
 * verified by asking PayPal, so what can never verify is refused unasked and the verifications are capped
 * for the whole store; Stripe and Authorize.Net check their signature locally and ask nothing before.
 */
let runtime: StoreRuntime;
/** The runtime's clock (the rate limiter's windows), moved an hour per test. */
let now = Date.now();
const clock = testClock();
clock.follow(() => now);

const FLOOD = 60;
const VERIFY_PATH = "/v1/notifications/verify-webhook-signature";
const customer = checkoutCustomer({ email: "ada.floods@example.com" });

const toPayPal = (request: Request) => paypalWebhook({ request, params: {}, context: testContext(runtime) });
const toAuthorizeNet = (request: Request) => authorizeNetWebhook({ request, params: {}, context: testContext(runtime) });
const toStripe = (request: Request) => stripeWebhook({ request, params: {}, context: testContext(runtime) });

/** Headers of the shape PayPal sends, for a signature PayPal never made. */
function paypalShapedHeaders(): Record<string, string> {
  return {
    "paypal-transmission-id": "8c2c6a80-1d2b-11ef-9e27-d1e0a3f1b0f1",
    "paypal-transmission-time": new Date().toISOString(),
    "paypal-transmission-sig": "c2lnbmF0dXJlIHRoYXQgUGF5UGFsIG5ldmVyIG1hZGU=",
    "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270",
    "paypal-auth-algo": "SHA256withRSA",
  };
}

const PAYPAL_EVENT = JSON.stringify({ id: "WH-1", event_type: "CHECKOUT.ORDER.APPROVED", resource: { id: "5O190127TN364715T" } });

describe.each(testDatabaseKinds())("forged webhooks on %s", (kind) => {
  let database: TestDatabase;
  let paypal: FakePayPal;
  let anet: FakeAuthorizeNet;
  let stripe: FakeStripe;
  let env: Record<string, string>;
  let warnings: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    [paypal, anet, stripe] = await Promise.all([startFakePayPal(), startFakeAuthorizeNet(), startFakeStripe()]);
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakePayPalSettings(paypal),
      PAYPAL_WEBHOOK_ID: FAKE_PAYPAL_WEBHOOK_ID,
      ...fakeAuthorizeNetSettings(anet),
      AUTHORIZE_NET_SIGNATURE_KEY: FAKE_ANET_SIGNATURE_KEY,
      STRIPE_SECRET_KEY: "sk_test_floods",
      STRIPE_PUBLISHABLE_KEY: "pk_test_floods",
      STRIPE_WEBHOOK_SECRET: "whsec_floods",
      STRIPE_API_BASE: stripe.url,
    };
    database = await createTestDatabase(kind);
    await database.db.insert(products).values(testProduct("blaze-4899", 4899));
  });
  afterAll(async () => {
    await database?.dispose();
    await Promise.all([paypal?.close(), anet?.close(), stripe?.close()]);
  });
  beforeEach(() => {
    // Each test an hour after the last one: the store-wide PayPal limit starts a new window for it.
    now += 3_600_000;
    runtime = testRuntime(database, env, { clock });
    paypal.reset();
    anet.reset();
    stripe.reset();
    warnings = vi.spyOn(logger, "warn").mockImplementation((() => {}) as never);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const verifications = () => paypal.requests.filter((request) => request.path === VERIFY_PATH);
  /**
   * At most one warning per kind during a burst, none with a stack. (The first of a kind may have been
   * logged by an earlier test within the quiet interval, so "at most": app/http/quiet-log.test.ts has the rest.)
   */
  function expectQuietLog() {
    const calls = warnings.mock.calls as unknown as [Record<string, unknown>, string][];
    const messages = calls.map(([, msg]) => msg);
    expect(messages).toEqual([...new Set(messages)]);
    expect(calls.filter(([fields]) => JSON.stringify(fields).includes("stack"))).toEqual([]);
  }

  it("refuses a PayPal delivery that can never verify without asking PayPal", async () => {
    const malformed: Record<string, string>[] = [
      {},
      { ...paypalShapedHeaders(), "paypal-transmission-sig": "" },
      { ...paypalShapedHeaders(), "paypal-transmission-id": "x".repeat(51) },
      { ...paypalShapedHeaders(), "paypal-auth-algo": "SHA256 with RSA; drop table" },
      { ...paypalShapedHeaders(), "paypal-cert-url": "https://paypal.com.attacker.example/cert.pem" },
      { ...paypalShapedHeaders(), "paypal-cert-url": "http://api.paypal.com/v1/notifications/certs/CERT-1" },
      { ...paypalShapedHeaders(), "paypal-cert-url": "https://api.paypal.com:8443/v1/notifications/certs/CERT-1" },
      { ...paypalShapedHeaders(), "paypal-cert-url": "https://[" },
      { ...paypalShapedHeaders(), "paypal-transmission-time": "yesterday" },
      { ...paypalShapedHeaders(), "paypal-transmission-time": new Date(Date.now() - 5 * 86_400_000).toISOString() },
      { ...paypalShapedHeaders(), "paypal-transmission-time": new Date(Date.now() + 3_600_000).toISOString() },
    ];
    for (const headers of malformed) {
      const response = await deliverWebhook(toPayPal, PAYPAL_EVENT, headers);
      expect(response.status, JSON.stringify(headers)).toBe(400);
      expect(await response.json()).toEqual({ error: "Invalid signature." });
    }
    for (const body of ["not json", "[]", JSON.stringify({ event_type: "CHECKOUT.ORDER.APPROVED" })]) {
      expect((await deliverWebhook(toPayPal, body, paypalShapedHeaders())).status).toBe(400);
    }
    expect(paypal.requests).toEqual([]);
    expectQuietLog();
  });

  it(`answers ${FLOOD} forged PayPal deliveries with at most the limit of calls to PayPal, and one line per kind`, async () => {
    const { limit } = RATE_LIMITS.paypalWebhookVerification;
    const statuses: number[] = [];
    for (let sent = 0; sent < FLOOD; sent++) {
      const response = await deliverWebhook(toPayPal, PAYPAL_EVENT, paypalShapedHeaders());
      statuses.push(response.status);
      if (response.status === 503) expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    expect(statuses.filter((status) => status === 400)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 503)).toHaveLength(FLOOD - limit);
    expect(verifications()).toHaveLength(limit);
    expect(paypal.requests.length).toBeLessThanOrEqual(limit + 1); // and one access token
    expectQuietLog();
  });

  it(`logs a flood of ${FLOOD} deliveries while PayPal cannot be asked once, without a stack`, async () => {
    const errors = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    paypal.respondWith((request, normal) =>
      request.path === VERIFY_PATH ? { status: 500, body: { name: "INTERNAL_SERVER_ERROR" } } : normal(request),
    );
    for (let sent = 0; sent < FLOOD; sent++) {
      expect((await deliverWebhook(toPayPal, PAYPAL_EVENT, paypalShapedHeaders())).status).toBe(503);
    }
    expect(verifications()).toHaveLength(RATE_LIMITS.paypalWebhookVerification.limit);
    expect(errors).not.toHaveBeenCalled();
    expectQuietLog();
  });

  it("tells PayPal to deliver a real event again while the limit is spent, and handles it in the next window", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const started = await startPayment(storeOf(database.db, parseConfig(env)), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(`not started: ${started.status}`);
    paypal.approveOrder(started.payment.reference);
    for (let sent = 0; sent < RATE_LIMITS.paypalWebhookVerification.limit; sent++) {
      await deliverWebhook(toPayPal, PAYPAL_EVENT, paypalShapedHeaders());
    }
    const spent = await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", started.payment.reference);
    expect(spent.status).toBe(503);
    expect(spent.headers.get("Retry-After")).toMatch(/^\d+$/);

    now += RATE_LIMITS.paypalWebhookVerification.windowMs;
    const redelivered = await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", started.payment.reference);
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toMatchObject({ handled: true, outcome: "paid" });
  });

  it(`makes no call to Authorize.Net for ${FLOOD} forged notifications: the signature is checked here first`, async () => {
    for (let sent = 0; sent < FLOOD; sent++) {
      const signature = sent % 2 === 0 ? "wrong" : "none";
      const response = await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", `${60000 + sent}`, {
        signature,
      });
      expect(response.status).toBe(400);
    }
    expect(anet.requests).toEqual([]);
  });

  it(`makes no call to Stripe for ${FLOOD} forged events: the signature is checked here first`, async () => {
    const intent = { id: "pi_3FloodsForged000000000", object: "payment_intent", status: "succeeded" };
    for (let sent = 0; sent < FLOOD; sent++) {
      const { payload, signature } = stripe.signedEvent("payment_intent.succeeded", intent, sent % 2 === 0 ? "whsec_other" : "");
      const request = new Request(`${TEST_ORIGIN}/api/stripe/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": sent % 2 === 0 ? signature : "t=1,v1=00" },
        body: payload,
      });
      expect((await toStripe(request)).status).toBe(400);
    }
    expect(stripe.requests).toEqual([]);
  });
});
