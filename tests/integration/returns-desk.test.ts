import { asc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { openDatabase } from "~/db/database.server";
import {
  afterSaleEvents,
  afterSaleLines,
  afterSalePhotos,
  afterSaleRequests,
  emailDeliveries,
  emailOutbox,
  orders,
  paymentAttempts,
  paymentAuditEntries,
  type OrderItem,
} from "~/db/schema";
import { listMoneyProblems } from "~/payments/money-problems.server";
import { refundAttempt } from "~/payments/refunds.server";
import { action as deskAction, loader as deskLoader } from "~/routes/_staff.returns.$number";
import { loader as deskListLoader } from "~/routes/_staff.returns._index";
import { loader as photoLoader } from "~/routes/_staff.returns.$number_.photos.$photoId";
import { loader as instructionsLoader } from "~/routes/return-instructions.$number.$authorization";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import type { StoreRuntime } from "~/store-runtime";
import { createStaffAccount } from "~/staff/accounts.server";
import { DESK_PAGE_SIZE, type DeskDetail } from "~/staff/returns-desk.server";
import { receiveAndRefund } from "~/staff/returns-desk-flow.server";
import { fakeEasyPostSettings, fakeLabelUrl, startFakeEasyPost } from "../fakes/easypost";
import type { FakeServer } from "../fakes/fake-http-server";
import { fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { startFakeStripe, succeededIntent, type FakeStripe } from "../fakes/stripe";
import { expectErrorLog } from "../support/error-log";
import { testOrder } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, storeOf, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";
import { callRoute, type RouteFn, type RouteOutcome } from "../support/route-outcome";

const STAFF_EMAIL = "desk@example.com";
const STAFF_PASSWORD = "Correct-Horse-Battery-43";

type Outcome = RouteOutcome;

let runtime: StoreRuntime;

function call(fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  return callRoute(fn, request, testContext(runtime, { clientAddress: "192.0.2.90" }), params);
}

const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, values: Record<string, string>, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData(values), headers: cookie ? { Cookie: cookie } : {} });

/** Two lines: 2 × $100 grills and 1 × $50 cover, $6.95 shipping charged: $256.95 paid. */
const ITEMS: OrderItem[] = [
  { productKey: "blaze-1", title: "Blaze grill", model: "BLZ-1", brand: "blaze", imageUrl: "/x.svg", unitPriceCents: 10_000, quantity: 2 },
  { productKey: "blaze-2", title: "Blaze cover", model: "BLZ-C", brand: "blaze", imageUrl: "/x.svg", unitPriceCents: 5_000, quantity: 1 },
];
const TOTAL = 25_695;

let made = 0;

describe.each(testDatabaseKinds())("the staff returns desk on %s", (kind) => {
  let database: TestDatabase;
  let stripe: FakeStripe;
  let paypal: FakePayPal;
  let easypost: FakeServer;
  let env: Record<string, string>;
  let browser: { cookie: string; csrf: string };

  beforeAll(async () => {
    stripe = await startFakeStripe();
    paypal = await startFakePayPal();
    easypost = await startFakeEasyPost();
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      STRIPE_SECRET_KEY: "sk_test_desk",
      STRIPE_PUBLISHABLE_KEY: "pk_test_desk",
      STRIPE_API_BASE: stripe.url,
      ...fakePayPalSettings(paypal),
    };
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, env);
    await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, role: "owner" });
    browser = await signIn();
  });
  afterAll(async () => {
    await database?.dispose();
    await stripe?.close();
    await paypal?.close();
    await easypost?.close();
  });
  beforeEach(() => {
    runtime = testRuntime(database, env);
  });

  async function signIn() {
    const page = await call(loginLoader as RouteFn, get("/login"));
    const first = { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf) };
    const signedIn = await call(
      loginAction as RouteFn,
      post("/login", { email: STAFF_EMAIL, password: STAFF_PASSWORD, csrf: first.csrf, redirectTo: "/returns" }, first.cookie),
    );
    expect(signedIn.status).toBe(303);
    const list = await call(deskListLoader as RouteFn, get("/returns", cookieFrom(signedIn.headers.get("Set-Cookie"))));
    return { cookie: cookieFrom(list.headers.get("Set-Cookie")), csrf: String(list.data!.csrf) };
  }

  /**
   * A paid order of ITEMS by `provider` (its payment seeded at that provider's fake) and a request on it
   * covering one grill and the cover: $150 of goods.
   */
  async function orderWithRequest({
    provider,
    kind: requestKind = "return",
    status = "requested",
  }: {
    provider: "stripe" | "paypal" | "test";
    kind?: "return" | "defect";
    status?: "requested" | "approved";
  }) {
    made += 1;
    const suffix = `${Date.now().toString(36).toUpperCase().slice(-5)}${made}`;
    const attemptId = `pa_desk_${suffix}`;
    const checkoutToken = `ck_desk_${suffix}`;
    let paymentId = `tp_${attemptId}`;
    if (provider === "stripe") {
      paymentId = `pi_desk${suffix}`;
      stripe.paymentIntents.set(paymentId, succeededIntent({ id: paymentId, amount: TOTAL, attemptId }));
    }
    if (provider === "paypal") {
      paymentId = `PP${suffix}`;
      paypal.paypal.orders.set(paymentId, {
        id: paymentId,
        status: "COMPLETED",
        intent: "CAPTURE",
        purchaseUnit: { reference_id: checkoutToken, custom_id: attemptId, amount: { currency_code: "USD", value: "256.95" } },
        returnUrl: null,
        cancelUrl: null,
        payerId: "PAYER1",
        captureOutcome: "complete",
        capture: { id: `CAP${suffix}`, status: "COMPLETED", amount: { currency_code: "USD", value: "256.95" } },
        createTime: new Date().toISOString(),
      });
    }
    const order = testOrder({
      items: ITEMS,
      subtotalCents: 25_000,
      shippingCents: 695,
      totalCents: TOTAL,
      paymentMethod: provider === "paypal" ? "paypal" : "stripe",
      paymentProvider: provider,
      paymentReference: paymentId,
      checkoutToken,
      status: "Shipped",
      email: `shopper.${suffix.toLowerCase()}@example.com`,
    });
    await database.db.insert(orders).values(order);
    await database.db.insert(paymentAttempts).values({
      id: attemptId,
      checkoutToken,
      method: provider === "paypal" ? "paypal" : "stripe",
      provider,
      reference: paymentId,
      paymentId,
      amountCents: TOTAL,
      status: "approved",
    });
    const number = `${requestKind === "return" ? "R" : "D"}-${suffix}`.slice(0, 18);
    const [request] = await database.db
      .insert(afterSaleRequests)
      .values({
        number,
        orderId: order.orderId,
        kind: requestKind,
        status,
        reason: requestKind === "return" ? "Changed my mind" : "Defective",
        note: "Too big for the patio.",
        serialNumber: requestKind === "defect" ? "SN-12345" : null,
        authorizationNumber: status === "approved" ? `RA-${suffix.padEnd(8, "2").slice(0, 8)}` : null,
      })
      .returning();
    await database.db.insert(afterSaleLines).values([
      { requestId: request.id, orderId: order.orderId, lineIndex: 0, productKey: "blaze-1", quantity: 1 },
      { requestId: request.id, orderId: order.orderId, lineIndex: 1, productKey: "blaze-2", quantity: 1 },
    ]);
    return { number, requestId: request.id, orderId: order.orderId, attemptId, paymentId };
  }

  /** A desk form as the page sends it: with the status the page showed (the request's now, unless the test says). */
  const send = async (number: string, values: Record<string, string>) => {
    const [row] = await database.db
      .select({ status: afterSaleRequests.status })
      .from(afterSaleRequests)
      .where(eq(afterSaleRequests.number, number));
    const form = { csrf: browser.csrf, seen: row?.status ?? "requested", ...values };
    return call(deskAction as RouteFn, post(`/returns/${number}`, form, browser.cookie), { number });
  };
  const detailOf = async (number: string) =>
    (await call(deskLoader as RouteFn, get(`/returns/${number}`, browser.cookie), { number })).data!.detail as DeskDetail;
  const eventsOf = (requestId: string) =>
    database.db.select().from(afterSaleEvents).where(eq(afterSaleEvents.requestId, requestId)).orderBy(asc(afterSaleEvents.id));
  const emailsOf = (requestId: string) =>
    database.db
      .select()
      .from(emailDeliveries)
      .where(like(emailDeliveries.reference, `%:${requestId}`));
  const requestOf = async (requestId: string) =>
    (await database.db.select().from(afterSaleRequests).where(eq(afterSaleRequests.id, requestId)))[0]!;

  it("lists open requests first with number, kind, order, customer, reason, status and age, and filters by status", async () => {
    const open = await orderWithRequest({ provider: "test" });
    const closed = await orderWithRequest({ provider: "test" });
    await database.db.update(afterSaleRequests).set({ status: "declined" }).where(eq(afterSaleRequests.id, closed.requestId));
    const list = await call(deskListLoader as RouteFn, get("/returns", browser.cookie));
    const openRows = list.data!.open as { number: string; status: string; customerName: string; kind: string; reason: string }[];
    expect(openRows.map((row) => row.number)).toContain(open.number);
    expect(openRows.map((row) => row.number)).not.toContain(closed.number);
    expect((list.data!.closed as { number: string }[]).map((row) => row.number)).toContain(closed.number);
    expect(openRows.find((row) => row.number === open.number)).toMatchObject({
      kind: "return",
      status: "requested",
      customerName: "Ada Lovelace",
      reason: "Changed my mind",
    });
    const declined = await call(deskListLoader as RouteFn, get("/returns?status=declined", browser.cookie));
    expect(declined.data!.open).toEqual([]);
    expect((declined.data!.closed as { status: string }[]).every((row) => row.status === "declined")).toBe(true);
    // Without a session: to the sign-in page.
    expect((await call(deskListLoader as RouteFn, get("/returns"))).status).toBe(303);
  });

  it("pages one status's requests with plain links, 50 at a time", async () => {
    const made = [];
    for (let index = 0; index < DESK_PAGE_SIZE + 2; index++) made.push(await orderWithRequest({ provider: "test" }));
    await database.db
      .update(afterSaleRequests)
      .set({ status: "declined" })
      .where(
        inArray(
          afterSaleRequests.id,
          made.map((each) => each.requestId),
        ),
      );
    const page = async (query: string) =>
      (await call(deskListLoader as RouteFn, get(`/returns?status=declined${query}`, browser.cookie))).data!;
    const first = await page("");
    const second = await page("&page=2");
    const numbers = (data: typeof first) => (data.closed as { number: string }[]).map((row) => row.number);
    expect(numbers(first)).toHaveLength(DESK_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(numbers(second).length).toBeGreaterThanOrEqual(2);
    expect(numbers(second).filter((number) => numbers(first).includes(number))).toEqual([]);
    expect(made.every((each) => [...numbers(first), ...numbers(second)].includes(each.number))).toBe(true);
    // A page that is not a number is the first.
    expect(numbers(await page("&page=x"))).toEqual(numbers(first));
  });

  it("approves a return once: an authorization number, an audit row, one email with the number and printable instructions", async () => {
    const { number, requestId } = await orderWithRequest({ provider: "test" });
    const answers = await Promise.all([send(number, { intent: "approve" }), send(number, { intent: "approve" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const request = await requestOf(requestId);
    expect(request).toMatchObject({ status: "approved", decidedAt: expect.any(Date) });
    expect(request.authorizationNumber).toMatch(/^RA-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(request.labelUrl).toBe(`${TEST_ORIGIN}/return-instructions/${number}/${request.authorizationNumber}`);
    expect((await eventsOf(requestId)).map((event) => [event.action, event.actor])).toEqual([["approved", STAFF_EMAIL]]);
    const emails = await emailsOf(requestId);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ reference: `return-approved:${requestId}`, toAddress: expect.stringMatching(/^shopper\./) });
    const [outboxed] = await database.db
      .select()
      .from(emailDeliveries)
      .where(eq(emailDeliveries.reference, `return-approved:${requestId}`));
    expect(outboxed.subject).toContain(request.authorizationNumber!);

    // The printable page: by both numbers only.
    const page = await call(instructionsLoader as RouteFn, get(request.labelUrl!.slice(TEST_ORIGIN.length)), {
      number,
      authorization: request.authorizationNumber!,
    });
    expect(page.status).toBe(200);
    expect(page.data!.instructions).toMatchObject({
      authorizationNumber: request.authorizationNumber,
      returnAddress: expect.arrayContaining(["2200 Commerce St"]),
    });
    const guessed = await call(instructionsLoader as RouteFn, get(`/return-instructions/${number}/RA-22222222`), {
      number,
      authorization: "RA-22222222",
    });
    expect(guessed.status).toBe(404);

    // Declined, the return is no longer to be sent: its instructions are gone with it.
    expect((await send(number, { intent: "decline", reason: "Outside the return window after all." })).status).toBe(303);
    const declined = await call(instructionsLoader as RouteFn, get(request.labelUrl!.slice(TEST_ORIGIN.length)), {
      number,
      authorization: request.authorizationNumber!,
    });
    expect(declined.status).toBe(404);
  });

  it("buys an EasyPost return label when EasyPost is configured, once, and deducts its cost from the refund", async () => {
    runtime = testRuntime(database, { ...env, ...fakeEasyPostSettings(easypost) });
    const { number, requestId } = await orderWithRequest({ provider: "test" });
    easypost.requests.length = 0;
    const answers = await Promise.all([send(number, { intent: "approve" }), send(number, { intent: "approve" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const created = easypost.requests.filter((request) => request.path === "/v2/shipments");
    const bought = easypost.requests.filter((request) => /^\/v2\/shipments\/[^/]+\/buy$/.test(request.path));
    expect(created).toHaveLength(1);
    expect(bought).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({
      shipment: { is_return: true, to_address: { name: "Ada Lovelace", zip: "78701" }, from_address: { street1: "2200 Commerce St" } },
    });
    // The cheapest of the fake's rates (USPS GroundAdvantage, $6.20).
    expect(bought[0]!.body).toEqual({ rate: { id: "rate_0" } });
    const request = await requestOf(requestId);
    const shipmentId = /\/v2\/shipments\/([^/]+)\/buy/.exec(bought[0]!.path)![1]!;
    expect(request.labelUrl).toBe(fakeLabelUrl(shipmentId));
    expect((await eventsOf(requestId)).map((event) => event.action)).toEqual(["approved", "return label bought"]);
    // Sent rows lose their bodies; the outbox (no email provider) keeps what was sent.
    const sent = await database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.textBody, `%${fakeLabelUrl(shipmentId)}%`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain(`Your return label: ${fakeLabelUrl(shipmentId)}`);
    expect(sent[0]!.subject).toContain(request.authorizationNumber!);
    expect((await detailOf(number)).refund).toMatchObject({ goodsCents: 15_000, returnShippingCents: 620, refundCents: 14_380 });

    // EasyPost refusing: the return is approved all the same, with the printable instructions.
    easypost.respondWith(() => ({ status: 422, body: { error: { code: "ADDRESS.VERIFY.FAILURE", message: "Address not found" } } }));
    const other = await orderWithRequest({ provider: "test" });
    const logged = expectErrorLog();
    expect((await send(other.number, { intent: "approve" })).status).toBe(303);
    expect(logged.messages().join("\n")).toMatch(/return label not bought/);
    const approved = await requestOf(other.requestId);
    expect(approved.labelUrl).toBe(`${TEST_ORIGIN}/return-instructions/${other.number}/${approved.authorizationNumber}`);
    expect((await eventsOf(other.requestId)).map((event) => [event.action, event.detail])).toEqual([
      ["approved", approved.authorizationNumber],
      ["return label not bought", expect.stringContaining("Address not found")],
    ]);
    expect((await detailOf(other.number)).refund).toMatchObject({ returnShippingCents: 0, refundCents: 15_000 });
  });

  it("acknowledges a defect claim without a label, and declines with a required reason", async () => {
    const defect = await orderWithRequest({ provider: "test", kind: "defect" });
    expect((await send(defect.number, { intent: "approve" })).status).toBe(303);
    expect(await requestOf(defect.requestId)).toMatchObject({ status: "approved", authorizationNumber: null, labelUrl: null });
    expect((await emailsOf(defect.requestId)).map((email) => email.reference)).toEqual([`defect-acknowledged:${defect.requestId}`]);

    const ret = await orderWithRequest({ provider: "test" });
    const empty = await send(ret.number, { intent: "decline", reason: "   " });
    expect(empty.status).toBe(400);
    expect((await send(ret.number, { intent: "decline", reason: "x".repeat(1001) })).status).toBe(400);
    expect((await requestOf(ret.requestId)).status).toBe("requested");
    const reason = "The grill was assembled and used.";
    expect((await send(ret.number, { intent: "decline", reason })).status).toBe(303);
    expect((await send(ret.number, { intent: "decline", reason })).status).toBe(409);
    expect(await requestOf(ret.requestId)).toMatchObject({ status: "declined", declineReason: reason });
    expect((await eventsOf(ret.requestId)).map((event) => [event.action, event.detail])).toEqual([["declined", reason]]);
    const emails = await emailsOf(ret.requestId);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.reference).toBe(`return-declined:${ret.requestId}`);
    // Without the CSRF token nothing changes.
    const other = await orderWithRequest({ provider: "test" });
    const forged = await call(deskAction as RouteFn, post(`/returns/${other.number}`, { intent: "approve" }, browser.cookie), {
      number: other.number,
    });
    expect(forged.status).toBe(403);
    expect((await requestOf(other.requestId)).status).toBe("requested");
  });

  it("proposes the returned lines less shipping back, and refuses a higher amount", async () => {
    const { number, requestId } = await orderWithRequest({ provider: "test", status: "approved" });
    const detail = await detailOf(number);
    // One $100 grill and the $50 cover; shipping to the customer ($6.95) is kept, no label bought.
    expect(detail.refund).toMatchObject({ goodsCents: 15_000, discountShareCents: 0, returnShippingCents: 0, refundCents: 15_000 });
    const higher = await send(number, { intent: "receive", amount: "150.01" });
    expect(higher.status).toBe(400);
    expect((higher.data!.flash as { message: string }).message).toMatch(/at most \$150\.00/);
    // Refused before anything changed: not received, not claimed, no event.
    expect(await requestOf(requestId)).toMatchObject({ status: "approved", receivedAt: null, refundStartedAt: null, refundedAt: null });
    expect(await eventsOf(requestId)).toEqual([]);
    expect((await send(number, { intent: "receive", amount: "twelve" })).status).toBe(400);
  });

  it("refunds a test-mode return without a provider, once, with its events and one email", async () => {
    const { number, requestId } = await orderWithRequest({ provider: "test", status: "approved" });
    const answers = await Promise.all([
      send(number, { intent: "receive", amount: "140.00" }),
      send(number, { intent: "receive", amount: "140.00" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect(await requestOf(requestId)).toMatchObject({
      status: "refunded",
      refundCents: 14_000,
      refundReference: `test-refund-return-refund-${requestId}`,
      refundStartedAt: null,
      receivedAt: expect.any(Date),
      refundedAt: expect.any(Date),
    });
    expect((await eventsOf(requestId)).map((event) => event.action)).toEqual(["refund asked", "received", "refunded"]);
    expect((await emailsOf(requestId)).map((email) => email.reference)).toEqual([`return-refunded:${requestId}`]);
    const again = await send(number, { intent: "receive", amount: "1.00" });
    expect(again.status).toBe(409);
    expect((again.data!.flash as { message: string }).message).toMatch(/already refunded/);
  });

  it("sends a Stripe return's refund once for two parallel clicks, as a partial refund with its own idempotency key", async () => {
    const { number, requestId, paymentId, attemptId } = await orderWithRequest({ provider: "stripe", status: "approved" });
    stripe.requests.length = 0;
    const answers = await Promise.all([
      send(number, { intent: "receive", amount: "150.00" }),
      send(number, { intent: "receive", amount: "150.00" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const refundCalls = stripe.requests.filter((request) => request.path === "/v1/refunds");
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0]!.headers["idempotency-key"]).toBe(`return-refund-${requestId}`);
    expect(stripe.refundsOf(paymentId)).toEqual([expect.objectContaining({ amount: 15_000, status: "succeeded" })]);
    expect(await requestOf(requestId)).toMatchObject({
      status: "refunded",
      refundCents: 15_000,
      refundReference: stripe.refundsOf(paymentId)[0]!.id,
    });
    const audit = await database.db.select().from(paymentAuditEntries).where(eq(paymentAuditEntries.attemptId, attemptId));
    expect(audit).toEqual([expect.objectContaining({ action: "partial refund", outcome: "refunded", staffEmail: STAFF_EMAIL })]);
    expect((await emailsOf(requestId)).map((email) => email.reference)).toEqual([`return-refunded:${requestId}`]);

    // The whole-payment refund afterwards (a cancelled order's) gives back only the rest ($256.95 − $150), once.
    await database.db.update(orders).set({ status: "Cancelled" }).where(eq(orders.paymentReference, paymentId));
    expect((await listMoneyProblems(database.db)).toRefund).toContainEqual(expect.objectContaining({ attemptId, amountCents: 10_695 }));
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    const rest = await refundAttempt(storeOf(database.db, parseConfig(env)), attempt!, STAFF_EMAIL);
    expect(rest).toMatchObject({ ok: true, message: expect.stringMatching(/remaining \$106\.95/) });
    expect(stripe.refundsOf(paymentId).map((refund) => refund.amount)).toEqual([15_000, 10_695]);
    const [after] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
    expect(await refundAttempt(storeOf(database.db, parseConfig(env)), after!, STAFF_EMAIL)).toMatchObject({
      ok: false,
      refusal: "conflict",
    });
    expect(stripe.refundsOf(paymentId)).toHaveLength(2);
    expect((await listMoneyProblems(database.db)).toRefund.map((row) => row.attemptId)).not.toContain(attemptId);
  });

  it("makes one provider call when two processes mark the same return received at once", async () => {
    const { number, requestId, paymentId } = await orderWithRequest({ provider: "stripe", status: "approved" });
    // On PostgreSQL a second connection pool, as a second store process has; PGlite has one connection.
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const staffUser = { id: "00000000-0000-0000-0000-000000000000", email: STAFF_EMAIL, role: "owner" as const };
      const config = parseConfig(env);
      const outcomes = await Promise.all(
        [database.db, second?.db ?? database.db, database.db, second?.db ?? database.db].map((db) =>
          receiveAndRefund(storeOf(db, config), { number, seen: "approved", amount: "150.00", staff: staffUser }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => (outcome as { refusal: string }).refusal)).toEqual([
        "conflict",
        "conflict",
        "conflict",
      ]);
      expect(stripe.refundsOf(paymentId)).toHaveLength(1);
      expect((await eventsOf(requestId)).filter((event) => event.action === "refunded")).toHaveLength(1);
      expect(await emailsOf(requestId)).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });

  it("takes one decision when staff decline and receive a return at the same moment: one 303, one 409, one email", async () => {
    for (let round = 0; round < 4; round += 1) {
      const { number, requestId, paymentId } = await orderWithRequest({ provider: "stripe", status: "approved" });
      const answers = await Promise.all([
        send(number, { intent: "receive", amount: "150.00", seen: "approved" }),
        send(number, { intent: "decline", reason: "Photos show the grill was used.", seen: "approved" }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
      const request = await requestOf(requestId);
      const actions = (await eventsOf(requestId)).map((event) => event.action);
      const emails = (await emailsOf(requestId)).map((email) => email.reference);
      if (request.status === "declined") {
        expect(request).toMatchObject({ refundStartedAt: null, refundedAt: null, receivedAt: null });
        expect(actions).toEqual(["declined"]);
        expect(emails).toEqual([`return-declined:${requestId}`]);
        expect(stripe.refundsOf(paymentId)).toEqual([]);
      } else {
        expect(request).toMatchObject({ status: "refunded", declineReason: null });
        expect(actions).toEqual(["refund asked", "received", "refunded"]);
        expect(emails).toEqual([`return-refunded:${requestId}`]);
        expect(stripe.refundsOf(paymentId)).toHaveLength(1);
      }
      // A declined return can never be received or refunded afterwards, nor a refunded one declined.
      const late = await send(
        number,
        request.status === "declined" ? { intent: "receive", amount: "150.00" } : { intent: "decline", reason: "late" },
      );
      expect(late.status).toBe(409);
    }
  });

  it("refuses a step from a page that showed another status: nothing changes", async () => {
    const { number, requestId } = await orderWithRequest({ provider: "test", status: "requested" });
    const stale = await send(number, { intent: "decline", reason: "No.", seen: "approved" });
    expect(stale.status).toBe(409);
    expect((stale.data!.flash as { message: string }).message).toMatch(/is requested now, not approved as this page showed/);
    expect((await send(number, { intent: "approve" })).status).toBe(303);
    expect((await send(number, { intent: "approve", seen: "requested" })).status).toBe(409);
    expect((await send(number, { intent: "approve", seen: "nonsense" })).status).toBe(400);
    expect((await requestOf(requestId)).status).toBe("approved");
  });

  it("refunds a PayPal return as a partial refund of its capture, and a second return of the order after it", async () => {
    const first = await orderWithRequest({ provider: "paypal", status: "approved" });
    const captureId = paypal.paypal.orders.get(first.paymentId)!.capture!.id as string;
    const answers = await Promise.all([
      send(first.number, { intent: "receive", amount: "120.00" }),
      send(first.number, { intent: "receive", amount: "120.00" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const refundCalls = paypal.requests.filter((request) => request.path.endsWith(`/captures/${captureId}/refund`));
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0]!.headers["paypal-request-id"]).toBe(`return-refund-${first.requestId}`);
    expect(refundCalls[0]!.body).toEqual({ amount: { currency_code: "USD", value: "120.00" } });
    expect(paypal.refundsOf(captureId).map((refund) => refund.amountCents)).toEqual([12_000]);

    // A second request on the same order: the payment holds $136.95 more; the proposal fits in it.
    const [second] = await database.db
      .insert(afterSaleRequests)
      .values({ number: `${first.number.slice(0, 14)}B`, orderId: first.orderId, kind: "return", status: "approved", reason: "Wrong item" })
      .returning();
    await database.db
      .insert(afterSaleLines)
      .values({ requestId: second.id, orderId: first.orderId, lineIndex: 0, productKey: "blaze-1", quantity: 2 });
    const detail = await detailOf(second.number);
    expect(detail.refund).toMatchObject({ goodsCents: 20_000, refundCents: 13_695, cappedByPayment: true });
    expect((await send(second.number, { intent: "receive", amount: "136.96" })).status).toBe(400);
    expect((await send(second.number, { intent: "receive", amount: "136.95" })).status).toBe(303);
    expect(paypal.refundsOf(captureId).map((refund) => refund.amountCents)).toEqual([12_000, 13_695]);
  });

  it("releases the claim when the provider refuses, leaves the return approved, shows why, and refunds on the next click", async () => {
    const { number, requestId, paymentId } = await orderWithRequest({ provider: "stripe", status: "approved" });
    stripe.paymentIntents.get(paymentId)!.status = "requires_payment_method";
    const refused = await send(number, { intent: "receive", amount: "150.00" });
    expect(refused.status).toBe(502);
    expect((refused.data!.flash as { message: string }).message).toMatch(/refused: .*successful charge/);
    // Received only together with its refund: a refused refund leaves the return approved.
    expect(await requestOf(requestId)).toMatchObject({ status: "approved", receivedAt: null, refundStartedAt: null, refundedAt: null });
    expect((await eventsOf(requestId)).map((event) => event.action)).toEqual(["refund asked", "refund refused"]);
    expect(await emailsOf(requestId)).toEqual([]);

    stripe.paymentIntents.get(paymentId)!.status = "succeeded";
    expect((await send(number, { intent: "receive", amount: "150.00" })).status).toBe(303);
    expect(stripe.refundsOf(paymentId)).toHaveLength(1);
    // Stripe keeps a refusal for its idempotency key: the try after a refusal carries a key of its own.
    const keys = stripe.requests
      .filter((request) => request.path === "/v1/refunds" && String(request.headers["idempotency-key"]).includes(requestId))
      .map((request) => request.headers["idempotency-key"]);
    expect(keys).toEqual([`return-refund-${requestId}`, `return-refund-${requestId}-2`]);
    expect((await requestOf(requestId)).status).toBe("refunded");
  });

  it("serves a request's photos to staff only, private and as stored", async () => {
    const { number, requestId } = await orderWithRequest({ provider: "test" });
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const [photo] = await database.db
      .insert(afterSalePhotos)
      .values({ requestId, contentType: "image/jpeg", width: 1, height: 1, data: bytes })
      .returning();
    const params = { number, photoId: photo.id };
    const answer = await call(photoLoader as RouteFn, get(`/returns/${number}/photos/${photo.id}`, browser.cookie), params);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("image/jpeg");
    expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
    expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(answer.headers.get("Content-Disposition")).toBe("inline");
    expect(Buffer.from(await answer.response!.arrayBuffer())).toEqual(bytes);
    expect((await call(photoLoader as RouteFn, get(`/returns/${number}/photos/${photo.id}`), params)).status).toBe(303);
    const otherRequest = await orderWithRequest({ provider: "test" });
    const wrong = await call(photoLoader as RouteFn, get(`/returns/${otherRequest.number}/photos/${photo.id}`, browser.cookie), {
      number: otherRequest.number,
      photoId: photo.id,
    });
    expect(wrong.status).toBe(404);
    expect((await detailOf(number)).photoIds).toEqual([photo.id]);
  });
});
