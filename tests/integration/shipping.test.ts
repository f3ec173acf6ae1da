import type { AppLoadContext } from "@remix-run/node";
import { eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { afterSaleRequests, emailDeliveries, emailOutbox, orderStatusChanges, orders, paymentAttempts } from "~/db/schema";
import { lookUpOrder } from "~/orders/lookup.server";
import { verifyReturnToken } from "~/returns/access.server";
import { announceRefund } from "~/orders/shipping.server";
import { trackShipment } from "~/orders/shipping-tracker.server";
import type { StoreRuntime } from "~/store-runtime";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_staff.dashboard";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { action as webhookAction } from "~/routes/api.easypost.webhook";
import { easyPostSignature } from "~/services/shipping/easypost-tracker.server";
import { createStaffAccount } from "~/staff/accounts.server";
import type { OrderDetail } from "~/staff/dashboard.server";
import { testClock } from "../support/test-clock";
import {
  easyPostTracker,
  easyPostTrackerEvent,
  FAKE_EASYPOST_WEBHOOK_SECRET,
  fakeEasyPostSettings,
  startFakeEasyPost,
  type FakeServer,
} from "../fakes/easypost";
import { testOrder } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, storeOf, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

const STAFF_EMAIL = "shipper@example.com";
const STAFF_PASSWORD = "Correct-Horse-Battery-42";
const PARCEL = { carrier: "UPS", trackingNumber: "1Z999AA10123456784" };
const UPS_LINK = "https://www.ups.com/track?tracknum=1Z999AA10123456784";

type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;
type Outcome = { status: number; headers: Headers; data: Record<string, unknown> | null; body?: unknown };

let runtime: StoreRuntime;

async function call(fn: RouteFn, request: Request, store: StoreRuntime = runtime): Promise<Outcome> {
  let result: unknown;
  try {
    result = await fn({ request, params: {}, context: testContext(store, { clientAddress: "192.0.2.41" }) });
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a redirect or a page
    }
    return { status: result.status, headers: result.headers, data: null, body };
  }
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
  }
  return { status: 200, headers: new Headers(), data: result as Record<string, unknown> };
}

const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, values: Record<string, string>, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData(values), headers: cookie ? { Cookie: cookie } : {} });

describe.each(testDatabaseKinds())("shipping with tracking, and the customer's emails, on %s", (kind) => {
  let database: TestDatabase;
  let easypost: FakeServer;
  let browser: { cookie: string; csrf: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    easypost = await startFakeEasyPost();
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
    await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, role: "staff" });
  });
  afterAll(async () => {
    await database?.dispose();
    await easypost?.close();
  });
  beforeEach(async () => {
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN }, { clock: testClock() });
    easypost.reset();
    browser = await signIn();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function signIn() {
    const page = await call(loginLoader as RouteFn, get("/login"));
    const first = { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf) };
    const signedIn = await call(
      loginAction as RouteFn,
      post("/login", { email: STAFF_EMAIL, password: STAFF_PASSWORD, csrf: first.csrf, redirectTo: "/dashboard" }, first.cookie),
    );
    expect(signedIn.status).toBe(303);
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", cookieFrom(signedIn.headers.get("Set-Cookie"))));
    return { cookie: cookieFrom(dashboard.headers.get("Set-Cookie")), csrf: String(dashboard.data!.csrf) };
  }

  const send = (values: Record<string, string>, store?: StoreRuntime) =>
    call(dashboardAction as RouteFn, post("/dashboard", { csrf: browser.csrf, ...values }, browser.cookie), store);
  const ship = (orderId: string, parcel: Record<string, string> = PARCEL, store?: StoreRuntime) =>
    send({ intent: "status", orderId, status: "Shipped", ...parcel }, store);
  const orderOf = async (orderId: string) => (await database.db.select().from(orders).where(eq(orders.orderId, orderId)))[0]!;
  const mailTo = (email: string) => database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
  const deliveriesOf = (orderId: string) =>
    database.db
      .select()
      .from(emailDeliveries)
      .where(like(emailDeliveries.reference, `%${orderId}%`));
  async function newOrder(columns: Parameters<typeof testOrder>[0] = {}) {
    const email = `shopper.${Math.random().toString(36).slice(2)}@example.com`;
    const [order] = await database.db
      .insert(orders)
      .values(testOrder({ email, status: "Packed", ...columns }))
      .returning();
    return { orderId: order.orderId, email };
  }

  describe("Shipped from the dashboard", () => {
    it("is refused without a carrier or a tracking number, with a clear message and nothing changed", async () => {
      const { orderId, email } = await newOrder();
      for (const [parcel, message] of [
        [{}, "Choose the carrier to mark the order Shipped."],
        [{ carrier: "UPS" }, "Enter the tracking number to mark the order Shipped."],
        [{ carrier: "UPS", trackingNumber: "  " }, "Enter the tracking number to mark the order Shipped."],
        [{ carrier: "Pony", trackingNumber: "1Z999" }, "Choose the carrier to mark the order Shipped."],
        [{ carrier: "UPS", trackingNumber: "<b>1</b>" }, "A tracking number has 4 to 40 letters, digits or dashes."],
      ] as const) {
        const answer = await ship(orderId, parcel);
        expect(answer).toMatchObject({ status: 400, data: { flash: { kind: "error", message } } });
      }
      const order = await orderOf(orderId);
      expect(order).toMatchObject({ status: "Packed", carrier: null, trackingNumber: null, shippedAt: null });
      expect(await database.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId))).toHaveLength(0);
      expect(await mailTo(email)).toHaveLength(0);
    });

    it("records carrier and number and sends one shipped email with the tracking link, posted twice or by two processes at once", async () => {
      const { orderId, email } = await newOrder();
      const other = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
      const answers = await Promise.all([ship(orderId), ship(orderId, PARCEL, other)]);
      expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
      expect((await ship(orderId)).status).toBe(303);

      const order = await orderOf(orderId);
      expect(order).toMatchObject({ status: "Shipped", carrier: "UPS", trackingNumber: "1Z999AA10123456784" });
      expect(order.shippedAt).toBeInstanceOf(Date);
      expect(await database.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId))).toHaveLength(1);

      const mail = await mailTo(email);
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({ tag: "order-shipped", subject: expect.stringContaining(`your order ${orderId} has shipped`) });
      expect(mail[0].textBody).toContain("Your order has shipped!");
      expect(mail[0].textBody).toContain("Carrier: UPS. Tracking number: 1Z999AA10123456784.");
      expect(mail[0].textBody).toContain(`Track your parcel: ${UPS_LINK}`);
      expect(mail[0].textBody).toContain(`${TEST_ORIGIN}/order-status/${orderId}`);
      expect(mail[0].htmlBody).toContain(`<a href="${UPS_LINK}">Track your parcel</a>`);
      // The signed link to the order's return page, which needs no checkout email.
      const returnLink = /Start a return: (\S+)/.exec(mail[0].textBody)?.[1] ?? "";
      expect(returnLink).toMatch(new RegExp(`^${TEST_ORIGIN}/order-status/${orderId}/return\\?token=`));
      const token = new URL(returnLink).searchParams.get("token");
      expect(verifyReturnToken(runtime.sessionSecret, orderId, token)).toEqual({ ok: true });
      expect(await deliveriesOf(orderId)).toEqual([expect.objectContaining({ reference: `order-shipped:${orderId}`, status: "sent" })]);

      // The dashboard panel and the public order page show the parcel.
      const panel = await call(dashboardLoader as RouteFn, get(`/dashboard?order=${orderId}`, browser.cookie));
      expect((panel.data!.selected as OrderDetail).shipment).toMatchObject({ carrier: "UPS", trackingUrl: UPS_LINK, deliveredAt: null });
      const lookup = await lookUpOrder(runtime, orderId, "192.0.2.42");
      expect(lookup).toMatchObject({
        status: "found",
        order: { status: "Shipped", shipment: { carrier: "UPS", trackingNumber: "1Z999AA10123456784", trackingUrl: UPS_LINK } },
      });
    });

    it("corrects a shipped order's number with one 'corrected tracking' email, never a second shipped one", async () => {
      const { orderId, email } = await newOrder();
      expect((await ship(orderId)).status).toBe(303);
      const fixed = { carrier: "FedEx", trackingNumber: "449044304137821" };
      const corrected = await ship(orderId, fixed);
      expect(corrected.status).toBe(303);
      expect((await ship(orderId, fixed)).status).toBe(303);
      expect(await orderOf(orderId)).toMatchObject({ carrier: "FedEx", trackingNumber: "449044304137821", status: "Shipped" });
      const mail = await mailTo(email);
      expect(mail.map((message) => message.tag).sort()).toEqual(["order-shipped", "order-tracking-corrected"]);
      const correction = mail.find((message) => message.tag === "order-tracking-corrected")!;
      expect(correction.textBody).toContain("https://www.fedex.com/fedextrack/?trknbr=449044304137821");
      // Setting it back to Packed and Shipped again keeps the one shipped email.
      expect((await send({ intent: "status", orderId, status: "Packed" })).status).toBe(303);
      expect((await ship(orderId, fixed)).status).toBe(303);
      expect(await mailTo(email)).toHaveLength(2);
    });

    it("shows nothing of the parcel on the order page once the order is not Shipped", async () => {
      const { orderId } = await newOrder();
      await ship(orderId);
      await send({ intent: "status", orderId, status: "Cancelled" });
      expect(await lookUpOrder(runtime, orderId, "192.0.2.43")).toMatchObject({ order: { status: "Cancelled", shipment: null } });
    });
  });

  describe("the delivery date", () => {
    it("is recorded by staff ('Delivered on') and by the test mode's button, only for a shipped order", async () => {
      const { orderId } = await newOrder();
      expect(await send({ intent: "delivered", orderId, deliveredOn: "2026-11-20" })).toMatchObject({
        status: 409,
        data: { flash: { kind: "error", message: "Only a shipped order with a tracking number can be marked delivered." } },
      });
      await ship(orderId);
      expect((await send({ intent: "delivered", orderId, deliveredOn: "not-a-date" })).status).toBe(400);
      expect((await send({ intent: "delivered", orderId, deliveredOn: "2999-01-01" })).status).toBe(400);
      expect((await send({ intent: "delivered", orderId, deliveredOn: "2026-11-20" })).status).toBe(303);
      expect((await orderOf(orderId)).deliveredAt?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
      const lookup = await lookUpOrder(runtime, orderId, "192.0.2.44");
      expect(lookup).toMatchObject({ order: { status: "Shipped", shipment: { deliveredAt: "2026-11-20T12:00:00.000Z" } } });

      // The test mode's button: only for an order paid on the test payment page.
      const card = await newOrder({ paymentProvider: "stripe" });
      await ship(card.orderId);
      expect(await send({ intent: "delivered-test", orderId: card.orderId })).toMatchObject({
        status: 409,
        data: { flash: { message: "Only a test order can be marked delivered without a date." } },
      });
      expect((await orderOf(card.orderId)).deliveredAt).toBeNull();
      const test = await newOrder();
      await ship(test.orderId);
      expect((await send({ intent: "delivered-test", orderId: test.orderId })).status).toBe(303);
      expect((await orderOf(test.orderId)).deliveredAt).toBeInstanceOf(Date);
      // A status change keeps the delivery date: a fact of the parcel.
      await send({ intent: "status", orderId: test.orderId, status: "Packed" });
      expect((await orderOf(test.orderId)).deliveredAt).toBeInstanceOf(Date);
    });
  });

  describe("EasyPost", () => {
    const easyRuntime = () => testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN, ...fakeEasyPostSettings(easypost) });
    const webhook = (body: string, signature: string | null) =>
      call(
        webhookAction as RouteFn,
        new Request(`${TEST_ORIGIN}/api/easypost/webhook`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-hmac-signature": signature }) },
        }),
        easyRuntime(),
      );

    it("follows a shipped parcel: the tracker job creates the tracker once, and the signed webhook records the delivery", async () => {
      const { orderId } = await newOrder();
      expect((await ship(orderId, PARCEL, easyRuntime())).status).toBe(303);
      expect(easypost.requests).toHaveLength(0); // not in the request: the job queue creates it
      const config = easyRuntime().config;
      expect(await trackShipment(storeOf(database.db, config), orderId)).toBe("tracked");
      expect(await trackShipment(storeOf(database.db, config), orderId)).toBe("nothing-to-do");
      expect(easypost.requests).toEqual([
        expect.objectContaining({ path: "/v2/trackers", body: { tracker: { tracking_code: "1Z999AA10123456784", carrier: "UPS" } } }),
      ]);
      const tracker = easyPostTracker("1Z999AA10123456784", "UPS", "2026-11-26T16:30:00Z");
      expect((await orderOf(orderId)).trackerId).toBe(tracker.id);

      // Forged, unsigned, mis-signed and malformed posts: 400, nothing changed.
      const body = JSON.stringify(easyPostTrackerEvent(tracker));
      expect((await webhook(body, null)).status).toBe(400);
      expect((await webhook(body, easyPostSignature("not-the-secret", body))).status).toBe(400);
      expect((await webhook(body.replace("2026-11-26", "2020-01-01"), easyPostSignature(FAKE_EASYPOST_WEBHOOK_SECRET, body))).status).toBe(
        400,
      );
      expect((await webhook("{oops", easyPostSignature(FAKE_EASYPOST_WEBHOOK_SECRET, "{oops"))).status).toBe(400);
      expect((await orderOf(orderId)).deliveredAt).toBeNull();

      // Signed: recorded; a replay, or a later event with another date, keeps the first.
      expect(await webhook(body, easyPostSignature(FAKE_EASYPOST_WEBHOOK_SECRET, body))).toMatchObject({ status: 200 });
      expect(await webhook(body, easyPostSignature(FAKE_EASYPOST_WEBHOOK_SECRET, body))).toMatchObject({ status: 200 });
      const later = JSON.stringify(easyPostTrackerEvent(easyPostTracker("1Z999AA10123456784", "UPS", "2026-11-29T09:00:00Z")));
      expect((await webhook(later, easyPostSignature(FAKE_EASYPOST_WEBHOOK_SECRET, later))).status).toBe(200);
      const order = await orderOf(orderId);
      expect(order.deliveredAt?.toISOString()).toBe("2026-11-26T16:30:00.000Z");
      expect(order.status).toBe("Shipped");
      expect(await lookUpOrder(runtime, orderId, "192.0.2.45")).toMatchObject({
        order: { shipment: { deliveredAt: "2026-11-26T16:30:00.000Z" } },
      });
    });

    it("refuses every webhook while no secret is set", async () => {
      const body = JSON.stringify(easyPostTrackerEvent(easyPostTracker("X1", "UPS", "2026-11-26T16:30:00Z")));
      const answer = await call(
        webhookAction as RouteFn,
        new Request(`${TEST_ORIGIN}/api/easypost/webhook`, {
          method: "POST",
          body,
          headers: { "x-hmac-signature": easyPostSignature("", body) },
        }),
      );
      expect(answer.status).toBe(400);
    });

    it("lets a failed tracker creation throw, for the job queue to try again", async () => {
      const { orderId } = await newOrder();
      await ship(orderId, { carrier: "Estes", trackingNumber: "PRO-55555" }, easyRuntime());
      easypost.respondWith(503, { error: { code: "SERVICE_UNAVAILABLE", message: "Try again" } });
      await expect(trackShipment(storeOf(database.db, easyRuntime().config), orderId)).rejects.toThrow(/503/);
      expect((await orderOf(orderId)).trackerId).toBeNull();
      easypost.reset();
      expect(await trackShipment(storeOf(database.db, easyRuntime().config), orderId)).toBe("tracked");
      expect(easypost.requests[0].body).toEqual({ tracker: { tracking_code: "PRO-55555" } });
    });
  });

  describe("cancelled and refunded", () => {
    async function paidOrder(provider: string) {
      const checkoutToken = `chk_${Math.random().toString(36).slice(2)}`;
      const { orderId, email } = await newOrder({ paymentProvider: provider, checkoutToken, status: "Approved" });
      const order = await orderOf(orderId);
      const attemptId = `att_${Math.random().toString(36).slice(2)}`;
      await database.db.insert(paymentAttempts).values({
        id: attemptId,
        checkoutToken,
        method: provider === "paypal" ? "paypal" : "stripe",
        provider,
        reference: order.paymentReference,
        paymentId: order.paymentReference,
        amountCents: order.totalCents,
        status: "approved",
      });
      return { orderId, email, attemptId };
    }

    it("tells the shopper once what happens to the payment of a cancelled order", async () => {
      const card = await paidOrder("stripe");
      expect((await send({ intent: "status", orderId: card.orderId, status: "Cancelled" })).status).toBe(303);
      expect((await send({ intent: "status", orderId: card.orderId, status: "Cancelled" })).status).toBe(303);
      const [mail, ...more] = await mailTo(card.email);
      expect(more).toHaveLength(0);
      expect(mail).toMatchObject({ tag: "order-cancelled", subject: expect.stringContaining(`order ${card.orderId} was cancelled`) });
      expect(mail.textBody).toContain("We are refunding your payment of $98.00 to the card you paid with");

      const test = await newOrder({ status: "Approved" });
      await send({ intent: "status", orderId: test.orderId, status: "Cancelled" });
      expect((await mailTo(test.email))[0].textBody).toContain("no money moved, so there is nothing to refund");
    });

    it("sends 'Refund issued' once for an order's own refunded payment, with amount, method and when it arrives, and none for a duplicate", async () => {
      const paypal = await paidOrder("paypal");
      await database.db
        .update(paymentAttempts)
        .set({ refundedAt: new Date(), refundReference: "RF-1" })
        .where(eq(paymentAttempts.id, paypal.attemptId));
      await announceRefund(storeOf(database.db, runtime.config), paypal.attemptId);
      await announceRefund(storeOf(database.db, runtime.config), paypal.attemptId);
      const mail = await mailTo(paypal.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({ tag: "refund-issued" });
      expect(mail[0].textBody).toContain(`We have refunded $98.00 for order ${paypal.orderId} to your PayPal account.`);
      expect(mail[0].textBody).toContain("5 to 10 business days");

      // After a return refunded part of it, the whole-payment Refund gave back the rest: the email says the rest.
      const returned = await paidOrder("paypal");
      await database.db.insert(afterSaleRequests).values({
        number: `R-${returned.orderId}`,
        orderId: returned.orderId,
        kind: "return",
        status: "refunded",
        reason: "Changed my mind",
        refundCents: 4000,
        refundReference: "RF-PART",
        refundedAt: new Date(),
      });
      await database.db
        .update(paymentAttempts)
        .set({ refundedAt: new Date(), refundReference: "RF-REST" })
        .where(eq(paymentAttempts.id, returned.attemptId));
      await announceRefund(storeOf(database.db, runtime.config), returned.attemptId);
      expect((await mailTo(returned.email))[0].textBody).toContain(`We have refunded $58.00 for order ${returned.orderId}`);

      const card = await paidOrder("stripe");
      await database.db
        .update(paymentAttempts)
        .set({ refundedAt: new Date(), refundReference: "RF-2", refundReason: "duplicate" })
        .where(eq(paymentAttempts.id, card.attemptId));
      await announceRefund(storeOf(database.db, runtime.config), card.attemptId);
      expect(await mailTo(card.email)).toHaveLength(0);
    });
  });
});
