import type { AppLoadContext } from "@remix-run/node";
import { desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCartCheckout, getCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { emailOutbox, orders, paymentAttempts, paymentAuditEntries, products } from "~/db/schema";
import { lookUpOrder } from "~/orders/lookup.server";
import { confirmPayment, NOT_TAKEN_MESSAGE } from "~/payments/confirm-payment.server";
import { CHARGED_TWICE_MESSAGE } from "~/payments/messages";
import { listMoneyProblems, type MoneyProblems } from "~/payments/money-problems.server";
import { reconcileDueAttempts } from "~/payments/reconciler.server";
import { STORE_ACTOR } from "~/payments/refunds.server";
import type { OrderDetail } from "~/staff/dashboard.server";
import { STATUS_REFUNDED } from "~/staff/view";
import { startPayment } from "~/payments/start-payment.server";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_staff.dashboard";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { createAuthorizeNetFromConfig } from "~/services/payments/authorize-net.server";
import { createStaffAccount } from "~/staff/accounts.server";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import type { RecordedRequest } from "../fakes/fake-http-server";
import { fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

const STAFF_EMAIL = "money@example.com";
const STAFF_PASSWORD = "Correct-Horse-Battery-42";
const customer = checkoutCustomer({ email: "ada.refunds@example.com" });
/** Shipped takes a carrier and a tracking number (ignored with another status). */
const PARCEL = { carrier: "UPS", trackingNumber: "1Z999AA10123456784" };

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

describe.each(testDatabaseKinds())("money after the sale on %s", (kind) => {
  let database: TestDatabase;
  let paypal: FakePayPal;
  let anet: FakeAuthorizeNet;
  let affirm: FakeAffirm;
  let env: Record<string, string>;
  const config = () => parseConfig(env);

  beforeAll(async () => {
    paypal = await startFakePayPal();
    anet = await startFakeAuthorizeNet();
    affirm = await startFakeAffirm();
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      ...fakePayPalSettings(paypal),
      ...fakeAuthorizeNetSettings(anet),
      ...fakeAffirmSettings(affirm),
    };
    database = await createTestDatabase(kind);
    await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, role: "owner" });
    await database.db.insert(products).values(testProduct("blaze-4899", 4899));
  });
  afterAll(async () => {
    await database?.dispose();
    await paypal?.close();
    await anet?.close();
    await affirm?.close();
  });
  beforeEach(() => {
    runtime = testRuntime(database, env);
    paypal.reset();
    anet.reset();
    affirm.reset();
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

  const confirm = (checkout: Checkout, method: "paypal" | "authorizenet" | "affirm", attemptId: string, returnParams?: URLSearchParams) =>
    confirmPayment(storeOf(database.db, config()), { method, checkoutToken: checkout.token, attemptId, returnParams });
  const newCheckout = () => createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
  const attemptOf = async (id: string) => (await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0]!;
  const auditOf = (id: string) => database.db.select().from(paymentAuditEntries).where(eq(paymentAuditEntries.attemptId, id));
  /** The lists of "Payments to settle" that name this payment (the tests of this file share one database). */
  async function listsNaming(attemptId: string, now?: Date) {
    const money = await listMoneyProblems(database.db, now);
    const lists = ["chargedTwice", "toRefund", "paidWithoutOrder", "captureDue"] as const;
    return lists.filter((list) => money[list].some((row) => row.attemptId === attemptId));
  }
  const isCreateTransaction = (request: RecordedRequest) =>
    typeof request.body === "object" && request.body !== null && "createTransactionRequest" in request.body;

  async function started(checkout: Checkout, method: "paypal" | "authorizenet" | "affirm") {
    const result = await startPayment(storeOf(database.db, config()), { checkout, method });
    if (result.status !== "started") throw new Error(result.status);
    return result;
  }

  /** One checkout paid twice on Authorize.Net's hosted form (two tabs): the provider took both, the second is the duplicate. */
  async function paidTwiceByCard(options: { refundFails?: boolean } = {}) {
    const checkout = await newCheckout();
    const first = await started(checkout, "authorizenet");
    const second = await started(checkout, "authorizenet");
    anet.submitHostedForm(first.payment.clientData!.token!, "pay");
    anet.submitHostedForm(second.payment.clientData!.token!, "pay");
    const paid = await confirm(checkout, "authorizenet", first.attemptId);
    if (paid.status !== "paid") throw new Error(paid.status);
    const logged = expectErrorLog();
    if (options.refundFails) anet.respondWith((request, normal) => (isCreateTransaction(request) ? { status: 503 } : normal(request)));
    const again = await confirm(checkout, "authorizenet", second.attemptId);
    anet.answerNormally();
    expect(logged.messages().join("\n")).toMatch(/paid checkout .* again/);
    return { checkout, orderId: paid.order.orderId, ownId: first.attemptId, duplicateId: second.attemptId, again };
  }

  it("never captures a second PayPal order of a paid checkout, on the return page, a return visit or the reconciler", async () => {
    const checkout = await newCheckout();
    const [first, second, third] = [
      await started(checkout, "paypal"),
      await started(checkout, "paypal"),
      await started(checkout, "paypal"),
    ];
    for (const attempt of [first, second, third]) paypal.approveOrder(attempt.payment.reference);
    const paid = await confirm(checkout, "paypal", first.attemptId);
    if (paid.status !== "paid") throw new Error(paid.status);

    const capturesOf = (orderId: string) => paypal.requests.filter((request) => request.path === `/v2/checkout/orders/${orderId}/capture`);
    // The shopper comes back from the second tab, twice: the order's page, and nothing taken.
    for (let visit = 0; visit < 2; visit++) {
      expect(await confirm(checkout, "paypal", second.attemptId)).toMatchObject({ status: "paid", chargedTwice: false });
    }
    // The third never comes back: the reconciler asks about it, and takes nothing either.
    await reconcileDueAttempts(storeOf(database.db, config()), { now: new Date(Date.now() + 6 * 60_000), limit: 100 });
    expect(capturesOf(second.payment.reference)).toHaveLength(0);
    expect(capturesOf(third.payment.reference)).toHaveLength(0);
    expect(capturesOf(first.payment.reference)).toHaveLength(1);
    for (const attempt of [second, third]) {
      expect(await attemptOf(attempt.attemptId)).toMatchObject({ status: "abandoned", message: NOT_TAKEN_MESSAGE, nextCheckAt: null });
    }
    const listed = (await listMoneyProblems(database.db)).chargedTwice.map((row) => row.attemptId);
    expect(listed).not.toContain(second.attemptId);
    expect(listed).not.toContain(third.attemptId);
  });

  it("of two approved PayPal orders confirmed at once for one checkout, captures exactly one", async () => {
    const checkout = await newCheckout();
    const attempts = [await started(checkout, "paypal"), await started(checkout, "paypal")];
    for (const attempt of attempts) paypal.approveOrder(attempt.payment.reference);
    const outcomes = await Promise.all(attempts.map((attempt) => confirm(checkout, "paypal", attempt.attemptId)));
    expect(outcomes.filter((outcome) => outcome.status === "paid").length).toBeGreaterThanOrEqual(1);
    expect(paypal.requests.filter((request) => request.path.endsWith("/capture"))).toHaveLength(1);
    expect(await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token))).toHaveLength(1);
  });

  it("refunds a second card payment of a paid checkout at once, tells the shopper, and lists it first for staff", async () => {
    const { orderId, duplicateId, again } = await paidTwiceByCard();
    expect(again).toMatchObject({ status: "paid", chargedTwice: true, order: { orderId } });
    expect(anet.apiCalls().filter((item) => item.name === "createTransactionRequest")).toHaveLength(1);
    const attempt = await attemptOf(duplicateId);
    expect(attempt).toMatchObject({ status: "approved", refundReason: "duplicate" });
    expect(attempt.refundedAt).not.toBeNull();
    expect(await auditOf(duplicateId)).toEqual([expect.objectContaining({ staffEmail: STORE_ACTOR, outcome: "refunded" })]);
    const [notice] = await database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, customer.email))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    expect(notice.textBody).toContain(CHARGED_TWICE_MESSAGE);
    expect(notice.textBody).toContain(orderId);

    const browser = await signIn();
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", browser.cookie));
    const money = dashboard.data!.money as MoneyProblems;
    expect(money.chargedTwice[0]).toMatchObject({
      attemptId: duplicateId,
      why: "duplicate",
      orderId,
      refundReference: attempt.refundReference,
    });
    expect(await listsNaming(duplicateId)).toEqual(["chargedTwice"]);
  });

  it("makes one provider call and one audit row for two parallel Refund posts of a refund that had failed", async () => {
    const { checkout, duplicateId, ownId } = await paidTwiceByCard({ refundFails: true });
    expect((await attemptOf(duplicateId)).refundedAt).toBeNull();
    const browser = await signIn();
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", browser.cookie));
    expect((dashboard.data!.money as MoneyProblems).chargedTwice[0]).toMatchObject({ attemptId: duplicateId, refundReference: null });

    // Without the form's CSRF token nothing is refunded.
    const forged = await call(dashboardAction as RouteFn, post("/dashboard", { intent: "refund", attemptId: duplicateId }, browser.cookie));
    expect(forged.status).toBe(403);

    anet.requests.length = 0;
    const refund = () =>
      call(
        dashboardAction as RouteFn,
        post("/dashboard", { intent: "refund", attemptId: duplicateId, csrf: browser.csrf }, browser.cookie),
      );
    const answers = await Promise.all([refund(), refund()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(anet.apiCalls().filter((item) => item.name === "createTransactionRequest")).toHaveLength(1);
    const audit = await auditOf(duplicateId);
    expect(audit.filter((entry) => entry.outcome === "refunded")).toEqual([expect.objectContaining({ staffEmail: STAFF_EMAIL })]);
    expect(audit.filter((entry) => entry.outcome !== "refunded")).toEqual([expect.objectContaining({ staffEmail: STORE_ACTOR })]);

    const succeeded = answers.find((answer) => answer.status === 303)!;
    const after = await call(
      dashboardLoader as RouteFn,
      get("/dashboard", cookieFrom(succeeded.headers.get("Set-Cookie")) || browser.cookie),
    );
    expect(after.data!.flash).toEqual({
      kind: "success",
      message: expect.stringMatching(/^Refunded \$55\.94 to the shopper \(authorizenet refund \w+\)\.$/),
    });
    // A later click refunds nothing more; the order's own payment is never refundable here.
    expect((await refund()).status).toBe(409);
    const ownRefund = await call(
      dashboardAction as RouteFn,
      post("/dashboard", { intent: "refund", attemptId: ownId, csrf: browser.csrf }, browser.cookie),
    );
    expect(ownRefund.status).toBe(409);
    expect(anet.apiCalls().filter((item) => item.name === "createTransactionRequest")).toHaveLength(1);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("paid");
  });

  it("shows a cancelled order's refund on its panel and its page, and keeps it Cancelled", async () => {
    const checkout = await newCheckout();
    const payment = await started(checkout, "authorizenet");
    anet.submitHostedForm(payment.payment.clientData!.token!, "pay");
    const paid = await confirm(checkout, "authorizenet", payment.attemptId);
    if (paid.status !== "paid") throw new Error(paid.status);
    const { orderId } = paid.order;
    const browser = await signIn();
    const send = (values: Record<string, string>) =>
      call(dashboardAction as RouteFn, post("/dashboard", { csrf: browser.csrf, ...values }, browser.cookie));
    expect((await send({ intent: "status", orderId, status: "Cancelled" })).status).toBe(303);
    expect((await send({ intent: "refund", attemptId: payment.attemptId })).status).toBe(303);
    expect((await send({ intent: "refund", attemptId: payment.attemptId })).status).toBe(409);
    // The shopper was told once of each: the cancellation (a refund to come), then the refund (amount, card, when).
    const mail = await database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.subject, `%${orderId}%`));
    expect(mail.map((message) => message.tag).sort()).toEqual(["order-cancelled", "order-confirmation", "refund-issued"]);
    expect(mail.find((message) => message.tag === "order-cancelled")!.textBody).toContain(
      "We are refunding your payment of $55.94 to the card you paid with",
    );
    const refunded = mail.find((message) => message.tag === "refund-issued")!.textBody;
    expect(refunded).toContain(`We have refunded $55.94 for order ${orderId} to the card you paid with.`);
    expect(refunded).toContain("within 5 to 10 business days");

    const panel = await call(dashboardLoader as RouteFn, get(`/dashboard?order=${orderId}`, browser.cookie));
    expect((panel.data!.selected as OrderDetail).refund).toMatchObject({ amountCents: 5594, refundReference: expect.any(String) });
    const shipped = await send({ intent: "status", orderId, status: "Shipped", ...PARCEL });
    expect(shipped).toMatchObject({ status: 409, data: { flash: { kind: "error", message: STATUS_REFUNDED } } });
    const [order] = await database.db.select().from(orders).where(eq(orders.orderId, orderId));
    expect(order.status).toBe("Cancelled");
    const lookup = await lookUpOrder(runtime, orderId, "192.0.2.78");
    expect(lookup).toMatchObject({ status: "found", order: { status: "Cancelled", refunds: [{ what: "Payment", amountCents: 5594 }] } });
  });

  describe("Affirm", () => {
    async function affirmOrder() {
      const checkout = await newCheckout();
      const payment = await started(checkout, "affirm");
      const token = payment.payment.reference;
      affirm.confirm(token);
      const paid = await confirm(checkout, "affirm", payment.attemptId, new URLSearchParams({ affirm_token: token }));
      if (paid.status !== "paid") throw new Error(paid.status);
      const transactionId = affirm.checkouts.get(token)!.transactionId!;
      return { orderId: paid.order.orderId, attemptId: payment.attemptId, token, transactionId };
    }
    const capturesOf = (transactionId: string) =>
      affirm.requests.filter((request) => request.path === `/api/v1/transactions/${transactionId}/capture`);

    it("is never listed as a duplicate, and its loan is captured once when the order ships, not when packed", async () => {
      const { orderId, attemptId, transactionId } = await affirmOrder();
      const browser = await signIn();
      const setStatus = (status: string) =>
        call(
          dashboardAction as RouteFn,
          post("/dashboard", { csrf: browser.csrf, intent: "status", orderId, status, ...PARCEL }, browser.cookie),
        );
      expect(await listsNaming(attemptId)).toEqual([]);

      expect((await setStatus("Packed")).status).toBe(303);
      expect(capturesOf(transactionId)).toHaveLength(0);
      expect((await setStatus("Shipped")).status).toBe(303);
      expect(capturesOf(transactionId)).toHaveLength(1);
      expect(affirm.transactions.get(transactionId)).toMatchObject({ status: "captured" });
      expect((await attemptOf(attemptId)).capturedAt).not.toBeNull();
      expect((await setStatus("Packed")).status).toBe(303);
      expect((await setStatus("Shipped")).status).toBe(303);
      expect(capturesOf(transactionId)).toHaveLength(1);
    });

    it("keeps the order unshipped when Affirm refuses the capture, with Affirm's reason", async () => {
      const { orderId, transactionId } = await affirmOrder();
      affirm.transactions.get(transactionId)!.status = "voided";
      const browser = await signIn();
      const answer = await call(
        dashboardAction as RouteFn,
        post("/dashboard", { csrf: browser.csrf, intent: "status", orderId, status: "Shipped", ...PARCEL }, browser.cookie),
      );
      expect(answer).toMatchObject({
        status: 502,
        data: { flash: { kind: "error", message: expect.stringMatching(/capture.*not marked Shipped/) } },
      });
      const [order] = await database.db.select().from(orders).where(eq(orders.orderId, orderId));
      expect(order.status).toBe("Approved");
    });

    it("voids a cancelled order's loan from the dashboard, by its transaction id", async () => {
      const { orderId, attemptId, transactionId } = await affirmOrder();
      const browser = await signIn();
      const send = (values: Record<string, string>) =>
        call(dashboardAction as RouteFn, post("/dashboard", { csrf: browser.csrf, ...values }, browser.cookie));
      expect((await send({ intent: "status", orderId, status: "Cancelled" })).status).toBe(303);
      expect(await listsNaming(attemptId)).toEqual(["toRefund"]);
      expect((await send({ intent: "refund", attemptId })).status).toBe(303);
      expect(affirm.requests.filter((request) => request.path === `/api/v1/transactions/${transactionId}/void`)).toHaveLength(1);
      expect(affirm.transactions.get(transactionId)).toMatchObject({ status: "voided" });
    });

    it("flags a loan whose authorization ends within a week while its order is not shipped", async () => {
      const { attemptId } = await affirmOrder();
      const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
      expect(await listsNaming(attemptId, inDays(22))).toEqual([]);
      expect(await listsNaming(attemptId, inDays(24))).toEqual(["captureDue"]);
      expect((await listMoneyProblems(database.db, inDays(24))).captureDue).toContainEqual(
        expect.objectContaining({ attemptId, why: "capture-due", authorizationExpiresAt: expect.any(String) }),
      );
    });

    it("records the order when the shopper confirmed at Affirm but the post-back was lost (the reconciler)", async () => {
      const checkout = await newCheckout();
      const payment = await started(checkout, "affirm");
      affirm.confirm(payment.payment.reference);
      const report = await reconcileDueAttempts(storeOf(database.db, config()), { now: new Date(Date.now() + 6 * 60_000), limit: 100 });
      expect(report.paid).toBeGreaterThanOrEqual(1);
      expect(await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token))).toEqual([
        expect.objectContaining({
          paymentProvider: "affirm",
          paymentReference: affirm.checkouts.get(payment.payment.reference)!.transactionId,
        }),
      ]);
    });
  });

  it("Authorize.Net voids an unsettled transaction and refunds a settled one to the same card", async () => {
    const provider = createAuthorizeNetFromConfig(config());
    for (const settled of [false, true]) {
      const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
      const started = await startPayment(storeOf(database.db, config()), { checkout, method: "authorizenet" });
      if (started.status !== "started") throw new Error(started.status);
      const paid = anet.submitHostedForm(started.payment.clientData!.token!, "pay");
      if (settled) anet.settle();
      const result = await provider.refundPayment!({
        attemptId: started.attemptId,
        reference: started.payment.reference,
        paymentId: started.payment.reference,
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
