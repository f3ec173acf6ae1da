import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCartCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { orders, paymentAttempts, paymentAuditEntries, products } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_staff.dashboard";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { createAuthorizeNetFromConfig } from "~/services/payments/authorize-net.server";
import { forgetPayPalTokens } from "~/services/payments/paypal.server";
import { createStaffAccount } from "~/staff/accounts.server";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/runtime.server";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

const STAFF_EMAIL = "money@example.com";
const STAFF_PASSWORD = "Correct-Horse-Battery-42";
const customer = checkoutCustomer({ email: "ada.refunds@example.com" });

type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;
type Outcome = { status: number; headers: Headers; data: Record<string, unknown> | null };

async function call(fn: RouteFn, request: Request): Promise<Outcome> {
  let result: unknown;
  try {
    result = await fn({ request, params: {}, context: testContext(runtime, { clientAddress: "192.0.2.77" }) });
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
  }
  return { status: 200, headers: new Headers(), data: result as Record<string, unknown> };
}

const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, values: Record<string, string>, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData(values), headers: cookie ? { Cookie: cookie } : {} });

describe.each(testDatabaseKinds())("refunds on %s", (kind) => {
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
      ...fakeAuthorizeNetSettings(anet),
    };
    database = await createTestDatabase(kind);
    await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD });
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
    forgetPayPalTokens();
  });

  async function signIn() {
    const page = await call(loginLoader as RouteFn, get("/login"));
    const browser = { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf) };
    const signedIn = await call(
      loginAction as RouteFn,
      post("/login", { email: STAFF_EMAIL, password: STAFF_PASSWORD, csrf: browser.csrf, redirectTo: "/dashboard" }, browser.cookie),
    );
    expect(signedIn.status).toBe(303);
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", cookieFrom(signedIn.headers.get("Set-Cookie"))));
    return { cookie: cookieFrom(dashboard.headers.get("Set-Cookie")), csrf: String(dashboard.data!.csrf) };
  }

  /** One checkout paid twice with PayPal (two tabs): the second payment is the duplicate. */
  async function paidTwice(): Promise<{ checkout: Checkout; duplicateId: string; orderId: string }> {
    const checkout = await createCartCheckout(database.db, [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const attempts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const started = await startPayment(database.db, config(), { checkout, method: "paypal" });
      if (started.status !== "started") throw new Error(started.status);
      paypal.approveOrder(started.payment.reference);
      attempts.push(started.attemptId);
    }
    let orderId = "";
    const logged = expectErrorLog();
    for (const attemptId of attempts) {
      const outcome = await confirmPayment(database.db, config(), { method: "paypal", checkoutToken: checkout.token, attemptId });
      if (outcome.status === "paid") orderId ||= outcome.order.orderId;
    }
    expect(logged.messages()[0]).toMatch(/paid checkout .* again/);
    return { checkout, duplicateId: attempts[1]!, orderId };
  }

  it("lists a duplicate payment on the dashboard and refunds it with the Refund form: once, audited, with a clear message", async () => {
    const { checkout, duplicateId, orderId } = await paidTwice();
    const browser = await signIn();
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", browser.cookie));
    const money = dashboard.data!.money as { toRefund: { attemptId: string; why: string; orderId: string }[] };
    expect(money.toRefund).toEqual([expect.objectContaining({ attemptId: duplicateId, why: "duplicate", orderId })]);

    // Without the form's CSRF token nothing is refunded.
    const forged = await call(dashboardAction as RouteFn, post("/dashboard", { intent: "refund", attemptId: duplicateId }, browser.cookie));
    expect(forged.status).toBe(403);
    expect(paypal.refunds.size).toBe(0);

    const refunded = await call(
      dashboardAction as RouteFn,
      post("/dashboard", { intent: "refund", attemptId: duplicateId, csrf: browser.csrf }, browser.cookie),
    );
    expect(refunded.status).toBe(303);
    expect(paypal.refunds.size).toBe(1);
    const after = await call(
      dashboardLoader as RouteFn,
      get("/dashboard", cookieFrom(refunded.headers.get("Set-Cookie")) || browser.cookie),
    );
    expect(after.data!.flash).toEqual({
      kind: "success",
      message: expect.stringMatching(/^Refunded \$55\.94 to the shopper \(paypal refund \w+\)\.$/),
    });
    expect((after.data!.money as { toRefund: unknown[] }).toRefund).toEqual([]);

    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, duplicateId));
    expect(attempt.refundedAt).not.toBeNull();
    expect(await database.db.select().from(paymentAuditEntries).where(eq(paymentAuditEntries.attemptId, duplicateId))).toEqual([
      expect.objectContaining({ staffEmail: STAFF_EMAIL, action: "refund", outcome: "refunded" }),
    ]);

    // A second click refunds nothing more; the order's own payment is never refundable here.
    const again = await call(
      dashboardAction as RouteFn,
      post("/dashboard", { intent: "refund", attemptId: duplicateId, csrf: browser.csrf }, browser.cookie),
    );
    expect(again.status).toBe(409);
    const [order] = await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token));
    const [own] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, order.paymentReference));
    const ownRefund = await call(
      dashboardAction as RouteFn,
      post("/dashboard", { intent: "refund", attemptId: own.id, csrf: browser.csrf }, browser.cookie),
    );
    expect(ownRefund.status).toBe(409);
    expect(paypal.refunds.size).toBe(1);
  });

  it("Authorize.Net voids an unsettled transaction and refunds a settled one to the same card", async () => {
    const provider = createAuthorizeNetFromConfig(config());
    for (const settled of [false, true]) {
      const checkout = await createCartCheckout(database.db, [{ productKey: "blaze-4899", quantity: 1 }], customer);
      const started = await startPayment(database.db, config(), { checkout, method: "authorizenet" });
      if (started.status !== "started") throw new Error(started.status);
      const paid = anet.submitHostedForm(started.payment.clientData!.token!, "pay");
      if (settled) anet.settle();
      const result = await provider.refundPayment!({
        attemptId: started.attemptId,
        reference: started.payment.reference,
        amountCents: 5594,
      });
      expect(result.status).toBe("refunded");
      const call = anet.apiCalls().find((item) => item.name === "createTransactionRequest")!;
      expect(call.body.transactionRequest).toMatchObject(
        settled
          ? { transactionType: "refundTransaction", refTransId: paid.transId, amount: "55.94" }
          : { transactionType: "voidTransaction", refTransId: paid.transId },
      );
      anet.reset();
    }
  });
});
