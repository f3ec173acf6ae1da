import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCartCheckout, getCheckout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { checkouts, emailOutbox, orders, paymentAttempts, products } from "~/db/schema";
import { startPayment } from "~/payments/start-payment.server";
import { getAttempt } from "~/payments/attempts.server";
import { listMoneyProblems } from "~/payments/money-problems.server";
import { action as authorizeChargeAction, loader as authorizeChargeLoader } from "~/routes/api.authorize-charge";
import { action as confirmOrderAction, loader as confirmOrderLoader } from "~/routes/api.confirm-order";
import { loader as returnPageLoader } from "~/routes/checkout-authorized.$method";
import { loader as cancelAffirmLoader } from "~/routes/checkout-canceled-affirm";
import { AFFIRM_AUTHORIZATION_FAILED, affirmProviderFromConfig } from "~/services/payments/affirm.server";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { formData, TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";
import { expectErrorLog } from "../support/error-log";

let runtime: StoreRuntime;

const customer = checkoutCustomer();

interface ReturnView {
  kind: string;
  orderId?: string;
  alert?: string;
}

// One fake for the whole file: every runtime below is configured with `env`, which points Affirm at it.
let fake: FakeAffirm;
let env: Record<string, string>;
beforeAll(async () => {
  fake = await startFakeAffirm();
  env = {
    PUBLIC_BASE_URL: TEST_ORIGIN,
    ...fakeAffirmSettings(fake),
  };
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
});

describe.each(testDatabaseKinds())("Affirm financing on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, env);
    await database.db
      .insert(products)
      .values([
        testProduct("blaze-4899", 4899, { categories: ["Home", "Grills", "Built-In Grills"] }),
        testProduct("blaze-250000", 250_000, { categories: ["Home", "Grills", "Built-In Grills"] }),
      ]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const config = () => parseConfig(env);

  async function ordersOf(checkoutToken: string) {
    return database.db.select().from(orders).where(eq(orders.checkoutToken, checkoutToken));
  }

  /** A cart checkout started with Affirm: the fake holds the checkout, its id is the attempt's reference. */
  async function startAffirm(key = "blaze-4899", quantity = 1) {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: key, quantity }], customer);
    const started = await startPayment(storeOf(database.db, config()), { checkout, method: "affirm" });
    if (started.status !== "started") throw new Error(`not started: ${started.status}`);
    expect(started.provider).toBe("affirm");
    return { checkout, attemptId: started.attemptId, affirmToken: started.payment.reference, redirectUrl: started.payment.redirectUrl };
  }

  /** Affirm posts checkout_token to our confirmation URL; we answer with the return page's address. */
  async function postConfirmation(affirmToken: string | null) {
    const body = affirmToken === null ? formData({}) : formData({ checkout_token: affirmToken });
    const response = (await confirmOrderAction({
      request: new Request(`${TEST_ORIGIN}/api/confirm-order`, { method: "POST", body }),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(response.status).toBe(303);
    return response.headers.get("Location")!;
  }

  async function visit(path: string) {
    const result = (await returnPageLoader({
      request: new Request(`${TEST_ORIGIN}${path}`),
      params: { method: "affirm" },
      context: testContext(runtime),
    })) as unknown as {
      data: ReturnView;
      init: { status?: number } | null;
    };
    return { view: result.data, status: result.init?.status ?? 200 };
  }

  async function authorizeCharge(body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) {
    const request = new Request(`${TEST_ORIGIN}/api/authorize-charge`, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const response = (await authorizeChargeAction({ request, params: {}, context: testContext(runtime) })) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    return { body: (await response.json()) as { transactionId?: string; orderId?: string; error?: string }, status: response.status };
  }

  it("sends Affirm the server-priced checkout with our confirmation and cancel URLs", async () => {
    const { checkout, attemptId, affirmToken, redirectUrl } = await startAffirm("blaze-4899", 2);
    expect(redirectUrl).toBe(`${fake.url}/checkout/${affirmToken}`);
    const sent = fake.checkouts.get(affirmToken)!.request;
    expect(sent).toMatchObject({
      merchant: {
        user_confirmation_url: `${TEST_ORIGIN}/api/confirm-order`,
        user_confirmation_url_action: "POST",
        user_cancel_url: `${TEST_ORIGIN}/checkout-canceled-affirm?checkout_token=${checkout.token}&attempt=${attemptId}`,
      },
      items: [
        {
          sku: "blaze-4899",
          unit_price: 4899,
          qty: 2,
          item_url: `${TEST_ORIGIN}/product/blaze-4899`,
          categories: [["Grills"], ["Built-In Grills"]],
        },
      ],
      metadata: { checkout_token: checkout.token, attempt_id: attemptId },
      order_id: attemptId,
      currency: "USD",
      shipping_amount: checkout.shippingCents,
      total: checkout.totalCents,
    });
  });

  it("refunds an authorized loan by voiding it (nothing was captured), once", async () => {
    const { attemptId, affirmToken } = await startAffirm();
    fake.confirm(affirmToken);
    expect((await visit(await postConfirmation(affirmToken))).view.kind).toBe("paid");
    const affirm = affirmProviderFromConfig(config());
    const transactionId = fake.checkouts.get(affirmToken)!.transactionId!;
    expect(transactionId).not.toBe(affirmToken);
    const refund = { attemptId, reference: affirmToken, paymentId: transactionId, amountCents: 5594 };
    expect(await affirm.refundPayment!(refund)).toMatchObject({ status: "refunded" });
    expect(fake.requests.filter((request) => request.path.endsWith(`/${transactionId}/void`))).toHaveLength(1);
    expect(await affirm.refundPayment!(refund)).toMatchObject({ status: "refused" });
  });

  it("never changes the rightful attempt for a wrong affirm_token in the return URL", async () => {
    const { checkout, attemptId, affirmToken } = await startAffirm();
    const other = await startAffirm();
    fake.confirm(affirmToken);
    const wrong = await visit(
      `/checkout-authorized/affirm?checkout_token=${checkout.token}&attempt=${attemptId}&affirm_token=${other.affirmToken}`,
    );
    expect(wrong.view.kind).toBe("failed");
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(attempt.status).toBe("started");
    expect((await visit(await postConfirmation(affirmToken))).view.kind).toBe("paid");
    expect(await ordersOf(checkout.token)).toHaveLength(1);
  });

  it("cancelling at Affirm marks the attempt abandoned and says so on the way back to the checkout", async () => {
    const { checkout, attemptId } = await startAffirm();
    const result = (await cancelAffirmLoader({
      request: new Request(`${TEST_ORIGIN}/checkout-canceled-affirm?checkout_token=${checkout.token}&attempt=${attemptId}`),
      params: {},
      context: testContext(runtime),
    })) as { backTo: string };
    expect(result.backTo).toBe(`/checkout?checkout=${checkout.token}&payment_cancelled=1`);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(attempt.status).toBe("abandoned");
    expect(await ordersOf(checkout.token)).toHaveLength(0);
  });

  it("records exactly one order after Affirm confirms, however often the shopper comes back or the API is called", async () => {
    const { checkout, attemptId, affirmToken } = await startAffirm();
    fake.confirm(affirmToken);

    const returnPath = await postConfirmation(affirmToken);
    expect(returnPath).toBe(
      `/checkout-authorized/affirm?checkout_token=${checkout.token}&attempt=${attemptId}&affirm_token=${affirmToken}`,
    );
    const first = await visit(returnPath);
    expect(first.view.kind).toBe("paid");
    const again = await visit(await postConfirmation(affirmToken));
    const api = await authorizeCharge({ checkoutToken: affirmToken });
    expect(again.view.orderId).toBe(first.view.orderId);
    const transactionId = fake.checkouts.get(affirmToken)!.transactionId!;
    expect(transactionId).not.toBe(affirmToken);
    expect(api).toEqual({ status: 200, body: { transactionId, orderId: first.view.orderId } });

    const recorded = await ordersOf(checkout.token);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ paymentMethod: "affirm", paymentReference: transactionId });
    // The attempt keeps the checkout token as its reference and Affirm's transaction as its payment: not a duplicate.
    expect(await getAttempt(database.db, attemptId)).toMatchObject({
      status: "approved",
      reference: affirmToken,
      paymentId: transactionId,
    });
    const money = await listMoneyProblems(database.db);
    expect([...money.chargedTwice, ...money.toRefund, ...money.paidWithoutOrder].map((row) => row.attemptId)).not.toContain(attemptId);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("paid");
    const [{ value: emails }] = await database.db
      .select({ value: count() })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, customer.email));
    expect(emails).toBeGreaterThanOrEqual(1);
    const authorizations = fake.requests.filter(
      (request) => request.path === "/api/v1/transactions" && (request.body as { transaction_id?: string }).transaction_id === affirmToken,
    );
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations.every((request) => request.headers["idempotency-key"] === attemptId)).toBe(true);
  });

  it("authorizes through POST /api/authorize-charge first, and the return page then shows the same order", async () => {
    const { checkout, affirmToken } = await startAffirm();
    fake.confirm(affirmToken);
    const [api, second] = await Promise.all([
      authorizeCharge({ checkoutToken: affirmToken }),
      authorizeCharge({ checkoutToken: affirmToken }),
    ]);
    expect(api.status).toBe(200);
    expect(second.body.orderId).toBe(api.body.orderId);
    const page = await visit(await postConfirmation(affirmToken));
    expect(page.view).toMatchObject({ kind: "paid", orderId: api.body.orderId });
    expect(await ordersOf(checkout.token)).toHaveLength(1);
  });

  it("records nothing when Affirm refuses the authorization (the shopper never confirmed)", async () => {
    expectErrorLog();
    const { checkout, affirmToken } = await startAffirm();
    const page = await visit(await postConfirmation(affirmToken));
    expect(page).toMatchObject({ status: 402, view: { kind: "failed", alert: AFFIRM_AUTHORIZATION_FAILED } });
    expect(await authorizeCharge({ checkoutToken: affirmToken })).toEqual({ status: 402, body: { error: AFFIRM_AUTHORIZATION_FAILED } });
    expect(await ordersOf(checkout.token)).toHaveLength(0);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("leaves the payment pending while Affirm is down, then records it on the next visit", async () => {
    expectErrorLog();
    const { checkout, attemptId, affirmToken } = await startAffirm();
    fake.confirm(affirmToken);
    const returnPath = await postConfirmation(affirmToken);
    fake.respondWith(500, { status_code: 500, type: "server_error", message: "Internal error" });
    try {
      expect((await visit(returnPath)).view.kind).toBe("pending");
      expect((await authorizeCharge({ checkoutToken: affirmToken })).status).toBe(502);
      fake.respondWith(200, "<html>not json");
      expect((await visit(returnPath)).view.kind).toBe("pending");
    } finally {
      fake.restore();
    }
    expect(await ordersOf(checkout.token)).toHaveLength(0);
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(attempt?.status).not.toMatch(/approved|declined/);
    expect((await visit(returnPath)).view.kind).toBe("paid");
    expect(await ordersOf(checkout.token)).toHaveLength(1);
  });

  it("records nothing when Affirm authorizes another amount than the server total", async () => {
    expectErrorLog();
    const { checkout, affirmToken } = await startAffirm();
    fake.confirm(affirmToken);
    fake.checkouts.get(affirmToken)!.amount = 100;
    const page = await visit(await postConfirmation(affirmToken));
    expect(page).toMatchObject({ status: 402, view: { kind: "failed", alert: AFFIRM_AUTHORIZATION_FAILED } });
    expect(await ordersOf(checkout.token)).toHaveLength(0);
    const [row] = await database.db.select().from(checkouts).where(eq(checkouts.token, checkout.token));
    expect(row?.status).toBe("pending");
  });

  it("explains a missing or unknown token on the return page", async () => {
    const missing = await postConfirmation(null);
    expect(missing).toBe("/checkout-authorized/affirm");
    expect(await visit(missing)).toMatchObject({ status: 400, view: { kind: "missing-token" } });
    const viaGet = (await confirmOrderLoader({
      request: new Request(`${TEST_ORIGIN}/api/confirm-order`),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(viaGet.headers.get("Location")).toBe("/checkout-authorized/affirm");
    const unknown = await visit(await postConfirmation("NOSUCHCHECKOUT01"));
    expect(unknown).toMatchObject({ status: 404, view: { kind: "failed", alert: AFFIRM_AUTHORIZATION_FAILED } });
    const odd = await postConfirmation("<script>");
    expect(odd).toBe("/checkout-authorized/affirm");
  });

  it("answers bad requests to /api/authorize-charge with clear JSON errors, never a 500", async () => {
    expect(await authorizeCharge({})).toEqual({ status: 400, body: { error: "checkoutToken is required." } });
    expect(await authorizeCharge("{not json")).toMatchObject({ status: 400 });
    expect(await authorizeCharge({ checkoutToken: "x".repeat(500) })).toMatchObject({ status: 400 });
    expect(await authorizeCharge({ checkoutToken: "NOSUCHCHECKOUT01" })).toEqual({
      status: 404,
      body: { error: AFFIRM_AUTHORIZATION_FAILED },
    });
    expect(await authorizeCharge({ checkoutToken: "A" }, { "Content-Type": "text/plain" })).toMatchObject({ status: 415 });
    const crossSite = await authorizeCharge({ checkoutToken: "A" }, { "Content-Type": "application/json", Origin: "https://evil.example" });
    expect(crossSite).toMatchObject({ status: 403 });
    const sameSite = await authorizeCharge(
      { checkoutToken: "NOSUCHCHECKOUT01" },
      { "Content-Type": "application/json", Origin: TEST_ORIGIN },
    );
    expect(sameSite.status).toBe(404);
    expect(authorizeChargeLoader().status).toBe(405);
  });
});
