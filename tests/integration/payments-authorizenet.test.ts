import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCartCheckout, getCheckout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { orders, paymentAttempts, products } from "~/db/schema";
import { AMOUNT_MISMATCH_MESSAGE, confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { loader as cancelledPage } from "~/routes/payments.cancelled";
import { paymentProvidersFor } from "~/services/payments/index.server";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";
import { logger } from "~/observability/logger.server";

let runtime: StoreRuntime;

const customer = checkoutCustomer();

describe.each(testDatabaseKinds())("Authorize.Net hosted form payments on %s", (kind) => {
  let database: TestDatabase;
  let fake: FakeAuthorizeNet;
  let config: ReturnType<typeof parseConfig>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    fake = await startFakeAuthorizeNet();
    config = parseConfig({
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakeAuthorizeNetSettings(fake),
    });
    await database.db.insert(products).values(testProduct("blaze-4899", 4899));
  });
  afterAll(async () => {
    await fake?.close();
    await database?.dispose();
  });
  beforeEach(() => fake.reset());

  async function start() {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "authorizenet" });
    if (started.status !== "started") throw new Error(`payment not started: ${started.status}`);
    return { checkout, started, token: started.payment.clientData!.token! };
  }

  const confirm = (checkoutToken: string, attemptId: string, extra: Record<string, string> = {}) =>
    confirmPayment(storeOf(database.db, config), {
      method: "authorizenet",
      checkoutToken,
      attemptId,
      returnParams: new URLSearchParams({ checkout_token: checkoutToken, attempt: attemptId, ...extra }),
    });

  const ordersOf = (checkoutToken: string) => database.db.select().from(orders).where(eq(orders.checkoutToken, checkoutToken));

  it("offers the hosted form as the only method once its keys are set", () => {
    expect(paymentProvidersFor(config, database.db).options()).toEqual([
      {
        method: "authorizenet",
        label: "Card on Authorize.Net's secure payment form",
        description: "Pay by card on Authorize.Net's secure payment page, then return here for your confirmation.",
        provider: "authorizenet",
        isTest: false,
      },
    ]);
  });

  it("asks for a form token for the server total and records one order for the approved transaction", async () => {
    const { checkout, started, token } = await start();
    expect(checkout.totalCents).toBe(4899 + 695);
    expect(fake.sessions.get(token)).toMatchObject({ amount: "55.94", invoiceNumber: started.payment.reference });
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, started.attemptId));
    expect(attempt).toMatchObject({ provider: "authorizenet", reference: started.payment.reference, amountCents: 5594 });

    fake.submitHostedForm(token, "pay");
    const first = await confirm(checkout.token, started.attemptId);
    expect(first.status).toBe("paid");

    // A second return, the popup's return with the transId, and two at once: still one order.
    const transId = [...fake.transactions.keys()][0]!;
    const again = await Promise.all([
      confirm(checkout.token, started.attemptId),
      confirm(checkout.token, started.attemptId, { trans_id: transId }),
      confirm(checkout.token, started.attemptId, { trans_id: transId }),
    ]);
    expect(again.map((outcome) => outcome.status)).toEqual(["paid", "paid", "paid"]);
    const rows = await ordersOf(checkout.token);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      totalCents: 5594,
      paymentMethod: "authorizenet",
      paymentProvider: "authorizenet",
      paymentReference: started.payment.reference,
    });
  });

  it("cancelling the hosted form without script returns to the store, which says 'Payment cancelled'", async () => {
    const { checkout, started, token } = await start();
    const cancelPath = `/payments/cancelled?checkout_token=${checkout.token}&attempt=${started.attemptId}`;
    expect(fake.sessions.get(token)?.cancelUrl).toBe(`${TEST_ORIGIN}${cancelPath}`);
    const left = await fetch(`${fake.hostedUrl}/decide`, {
      method: "POST",
      body: new URLSearchParams({ token, decision: "cancel", framed: "0" }),
      redirect: "manual",
    });
    expect(left.headers.get("location")).toBe(`${TEST_ORIGIN}${cancelPath}`);
    runtime = testRuntime(database, {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakeAuthorizeNetSettings(fake),
    });
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    const back = (await cancelledPage({
      request: new Request(`${TEST_ORIGIN}${cancelPath}`),
      params: {},
      context: testContext(runtime),
    })) as Response;
    error.mockRestore();
    expect(back.headers.get("Location")).toBe(`/checkout?checkout=${checkout.token}&payment_cancelled=1`);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, started.attemptId));
    expect(attempt?.status).toBe("abandoned");
    expect(await ordersOf(checkout.token)).toHaveLength(0);
  });

  it("records nothing for a declined transaction", async () => {
    const { checkout, started, token } = await start();
    fake.submitHostedForm(token, "decline");
    const outcome = await confirm(checkout.token, started.attemptId);
    expect(outcome).toMatchObject({ status: "declined", message: "Your card was declined. This transaction has been declined." });
    expect(await ordersOf(checkout.token)).toHaveLength(0);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("leaves the payment pending while Authorize.Net fails or has no transaction yet, and records it later", async () => {
    const { checkout, started, token } = await start();
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    expect((await confirm(checkout.token, started.attemptId)).status).toBe("pending");

    fake.submitHostedForm(token, "pay");
    fake.respondWith(500, { error: "down" });
    expect((await confirm(checkout.token, started.attemptId)).status).toBe("pending");
    expect(await ordersOf(checkout.token)).toHaveLength(0);
    error.mockRestore();

    fake.answerNormally();
    expect((await confirm(checkout.token, started.attemptId)).status).toBe("paid");
    expect(await ordersOf(checkout.token)).toHaveLength(1);
  });

  it("refuses a transaction whose amount differs from the server total", async () => {
    const { checkout, started, token } = await start();
    const paid = fake.submitHostedForm(token, "pay");
    fake.transactions.set(paid.transId, { ...paid, authAmount: 1.04, settleAmount: 1.04 });
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    expect(await confirm(checkout.token, started.attemptId)).toMatchObject({ status: "declined", message: AMOUNT_MISMATCH_MESSAGE });
    error.mockRestore();
    expect(await ordersOf(checkout.token)).toHaveLength(0);
  });

  it("fails to start cleanly when Authorize.Net refuses the credentials", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const wrong = parseConfig({
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakeAuthorizeNetSettings(fake),
      AUTHORIZE_NET_TRANSACTION_KEY: "wrong-key",
    });
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    expect(await startPayment(storeOf(database.db, wrong), { checkout, method: "authorizenet" })).toEqual({
      status: "failed",
      message: "An unexpected error occurred.",
    });
    expect(JSON.stringify(error.mock.calls[0])).toContain("E00007");
    error.mockRestore();
  });
});
