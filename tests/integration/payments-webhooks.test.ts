import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCartCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { emailOutbox, orders, paymentAttempts, products } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { ABANDONED_MESSAGE, DEFAULT_RECONCILE_POLICY, reconcileDueAttempts } from "~/payments/reconciler.server";
import { refundPayment } from "~/payments/money-problems.server";
import { startPayment } from "~/payments/start-payment.server";
import { updateOrderStatus } from "~/staff/dashboard.server";
import { action as authorizeNetWebhook } from "~/routes/api.authorizenet.webhook";
import { action as paypalWebhook } from "~/routes/api.paypal.webhook";
import { FAKE_ANET_SIGNATURE_KEY, fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { FAKE_PAYPAL_WEBHOOK_ID, fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, storeOf, withJobs } from "../support/test-runtime";
import { logger } from "~/observability/logger.server";

let runtime: StoreRuntime;

const customer = checkoutCustomer({ email: "ada.webhooks@example.com" });

const toPayPal = (request: Request) => paypalWebhook({ request, params: {}, context: testContext(runtime) });
const toAuthorizeNet = (request: Request) => authorizeNetWebhook({ request, params: {}, context: testContext(runtime) });

describe.each(testDatabaseKinds())("webhooks and the reconciler on %s", (kind) => {
  let database: TestDatabase;
  let paypal: FakePayPal;
  let anet: FakeAuthorizeNet;
  let env: Record<string, string>;
  const config = () => parseConfig(env);

  beforeAll(async () => {
    paypal = await startFakePayPal();
    anet = await startFakeAuthorizeNet();
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakePayPalSettings(paypal),
      PAYPAL_WEBHOOK_ID: FAKE_PAYPAL_WEBHOOK_ID,
      ...fakeAuthorizeNetSettings(anet),
      AUTHORIZE_NET_SIGNATURE_KEY: FAKE_ANET_SIGNATURE_KEY,
    };
    database = await createTestDatabase(kind);
    await database.db.insert(products).values(testProduct("blaze-4899", 4899));
  });
  afterAll(async () => {
    await database?.dispose();
    await paypal?.close();
    await anet?.close();
  });
  beforeEach(() => {
    runtime = testRuntime(database, env);
    paypal.reset();
    anet.reset();
  });

  async function start(method: "paypal" | "authorizenet") {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const started = await startPayment(storeOf(database.db, config()), { checkout, method });
    if (started.status !== "started") throw new Error(`not started: ${started.status}`);
    return { checkout, attemptId: started.attemptId, reference: started.payment.reference, token: started.payment.clientData?.token };
  }

  const ordersOf = (checkout: Checkout) => database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token));
  const attemptOf = async (id: string) => (await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0];
  async function emailsTo(address: string) {
    const [{ value }] = await database.db.select({ value: count() }).from(emailOutbox).where(eq(emailOutbox.toAddress, address));
    return value;
  }

  describe("PayPal", () => {
    it("records one order when PayPal says the order was approved and the shopper never came back, however often it says so", async () => {
      const { checkout, attemptId, reference } = await start("paypal");
      paypal.approveOrder(reference);
      const first = await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ handled: true, outcome: "paid" });
      // The capture's own event and a replay add nothing.
      expect((await paypal.sendWebhook(toPayPal, "PAYMENT.CAPTURE.COMPLETED", reference)).status).toBe(200);
      expect((await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference)).status).toBe(200);
      expect(await ordersOf(checkout)).toHaveLength(1);
      expect((await attemptOf(attemptId)).status).toBe("approved");
      expect(await emailsTo(customer.email)).toBeGreaterThanOrEqual(1);
    });

    it("leaves a refunded payment as it is when PayPal's capture event comes late or again", async () => {
      const { checkout, attemptId, reference } = await start("paypal");
      paypal.approveOrder(reference);
      expect((await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference)).status).toBe(200);
      const [order] = await ordersOf(checkout);
      await updateOrderStatus(withJobs(database.db), {
        orderId: order!.orderId,
        status: "Cancelled",
        staff: { email: "staff@example.com" },
      });
      expect(await refundPayment(storeOf(database.db, config()), attemptId, "staff@example.com")).toMatchObject({ ok: true });
      const before = await attemptOf(attemptId);

      for (const event of ["PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.REFUNDED", "CHECKOUT.ORDER.COMPLETED"]) {
        const answer = await paypal.sendWebhook(toPayPal, event, reference);
        expect(answer.status).toBe(200);
        expect(await answer.json()).toMatchObject({ outcome: "paid" });
      }
      expect(await attemptOf(attemptId)).toMatchObject({ status: "approved", message: null, refundedAt: before!.refundedAt });
      expect(paypal.requests.filter((request) => request.path.endsWith("/capture"))).toHaveLength(1);
    });

    it("answers 400, never 404, to an unsigned or mis-signed event, and to any event while no webhook id is set", async () => {
      const { checkout, reference } = await start("paypal");
      paypal.approveOrder(reference);
      for (const signature of ["none", "wrong"] as const) {
        const response = await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference, { signature });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ error: "Invalid signature." });
      }
      const otherHook = await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference, { webhookId: "WH-SOMEONE-ELSE" });
      expect(otherHook.status).toBe(400);
      runtime = testRuntime(database, { ...env, PAYPAL_WEBHOOK_ID: "" });
      expect((await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference)).status).toBe(400);
      runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
      expect((await paypal.sendWebhook(toPayPal, "CHECKOUT.ORDER.APPROVED", reference)).status).toBe(400);
      expect(await ordersOf(checkout)).toHaveLength(0);
    });
  });

  describe("Authorize.Net", () => {
    it("records one order for a paid transaction whose return never arrived, from its signed notification", async () => {
      const { checkout, attemptId, token } = await start("authorizenet");
      const paid = anet.submitHostedForm(token!, "pay");
      const response = await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", paid.transId);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ handled: true, outcome: "paid" });
      expect((await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", paid.transId)).status).toBe(200);
      expect(await ordersOf(checkout)).toHaveLength(1);
      expect((await attemptOf(attemptId)).status).toBe("approved");
    });

    it("answers 400 to an unsigned or mis-signed notification, and while no signature key is set", async () => {
      const { checkout, token } = await start("authorizenet");
      const paid = anet.submitHostedForm(token!, "pay");
      for (const signature of ["none", "wrong"] as const) {
        const response = await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", paid.transId, { signature });
        expect(response.status).toBe(400);
      }
      runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
      expect((await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", paid.transId)).status).toBe(400);
      expect(await ordersOf(checkout)).toHaveLength(0);
    });

    it("a notification about a transaction of no attempt of ours is acknowledged and changes nothing", async () => {
      const { checkout, token } = await start("authorizenet");
      const paid = anet.submitHostedForm(token!, "pay");
      anet.transactions.set(paid.transId, { ...paid, invoiceNumber: "someone-else" });
      const response = await anet.sendWebhook(toAuthorizeNet, "net.authorize.payment.authcapture.created", paid.transId);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ handled: false });
      expect(await ordersOf(checkout)).toHaveLength(0);
    });
  });

  describe("the reconciler, with webhooks off", () => {
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

    it("turns a paid attempt whose return never arrived into exactly one order, with its email, once the first check is due", async () => {
      const paypalPayment = await start("paypal");
      const anetPayment = await start("authorizenet");
      paypal.approveOrder(paypalPayment.reference);
      anet.submitHostedForm(anetPayment.token!, "pay");

      // Not before the first check is due.
      await reconcileDueAttempts(storeOf(database.db, config()), { now: new Date() });
      expect(await ordersOf(paypalPayment.checkout)).toHaveLength(0);
      // Attempts the earlier tests left unfinished are asked about too; some have no transaction (logged).
      const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
      const report = await reconcileDueAttempts(storeOf(database.db, config()), { now: later(6), limit: 100 });
      error.mockRestore();
      expect(report.paid).toBeGreaterThanOrEqual(2);
      expect(await ordersOf(paypalPayment.checkout)).toHaveLength(1);
      expect(await ordersOf(anetPayment.checkout)).toHaveLength(1);

      // A late return, another pass and two processes' passes at once record nothing more.
      await confirmPayment(storeOf(database.db, config()), {
        method: "paypal",
        checkoutToken: paypalPayment.checkout.token,
        attemptId: paypalPayment.attemptId,
      });
      const quiet = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
      const again = await Promise.all([
        reconcileDueAttempts(storeOf(database.db, config()), { now: later(600) }),
        reconcileDueAttempts(storeOf(database.db, config()), { now: later(600) }),
      ]);
      quiet.mockRestore();
      expect(again.map((pass) => pass.paid)).toEqual([0, 0]);
      expect(await ordersOf(paypalPayment.checkout)).toHaveLength(1);
      expect(await ordersOf(anetPayment.checkout)).toHaveLength(1);
    });

    it("asks again with back-off while nothing is paid, and marks the attempt abandoned after the deadline", async () => {
      const { checkout, attemptId } = await start("paypal");
      const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
      expect((await reconcileDueAttempts(storeOf(database.db, config()), { now: later(6) })).rescheduled).toBeGreaterThanOrEqual(1);
      const first = await attemptOf(attemptId);
      expect(first.checks).toBe(1);
      expect(first.nextCheckAt!.getTime()).toBeGreaterThan(later(6 + 9).getTime());
      // Not yet due: left alone.
      const { rescheduled } = await reconcileDueAttempts(storeOf(database.db, config()), { now: later(7) });
      expect((await attemptOf(attemptId)).checks).toBe(1);
      expect(rescheduled).toBe(0);

      const past = later(DEFAULT_RECONCILE_POLICY.deadlineMs / 60_000 + 1);
      await reconcileDueAttempts(storeOf(database.db, config()), { now: past });
      error.mockRestore();
      expect(await attemptOf(attemptId)).toMatchObject({ status: "abandoned", message: ABANDONED_MESSAGE, nextCheckAt: null });
      expect(await ordersOf(checkout)).toHaveLength(0);
    });
  });
});
