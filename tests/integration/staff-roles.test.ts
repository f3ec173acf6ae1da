import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  afterSaleEvents,
  afterSaleLines,
  afterSaleRequests,
  emailDeliveries,
  orders,
  paymentAttempts,
  paymentAuditEntries,
  staffUsers,
  stockMovements,
  type OrderItem,
} from "~/db/schema";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_staff.dashboard";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { action as deskAction, loader as deskLoader } from "~/routes/_staff.returns.$number";
import type { StoreRuntime } from "~/store-runtime";
import { createStaffAccount } from "~/staff/accounts.server";
import { requireOwner } from "~/staff/guard.server";
import { OWNER_ONLY, type StaffRole } from "~/staff/roles";
import { startFakeStripe, succeededIntent, type FakeStripe } from "../fakes/stripe";
import { testOrder } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";
import { callRoute, type RouteFn, type RouteOutcome } from "../support/route-outcome";

/**
 * Owner and staff accounts (app/staff/roles.ts): refunds are an owner's. The server refuses them to a
 * staff account (403, OWNER_ONLY.refunds) before anything is written or asked of the provider, whatever
 * the page showed; the pages are told which role they draw for.
 */

const OWNER = "owner@example.com";
const CLERK = "clerk@example.com";
const PASSWORD = "Roles-Are-Checked-Here-1";

/** 2 × $100 grills, $6.95 shipping: $206.95 paid with Stripe. */
const ITEMS: OrderItem[] = [
  { productKey: "blaze-1", title: "Blaze grill", model: "BLZ-1", brand: "blaze", imageUrl: "/x.svg", unitPriceCents: 10_000, quantity: 2 },
];
const TOTAL = 20_695;

let runtime: StoreRuntime;
let made = 0;

const call = (fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<RouteOutcome> =>
  callRoute(fn, request, testContext(runtime, { clientAddress: "192.0.2.91" }), params);
const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, values: Record<string, string>, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData(values), headers: cookie ? { Cookie: cookie } : {} });
const flashOf = (outcome: RouteOutcome) => (outcome.data?.flash as { kind: string; message: string } | undefined) ?? null;

describe("requireOwner", () => {
  const as = (role: StaffRole) => ({ staff: { id: "00000000-0000-0000-0000-000000000000", email: "jo@example.com", role } });

  it("lets an owner do everything and hands a staff account the action's refusal", () => {
    for (const action of Object.keys(OWNER_ONLY) as (keyof typeof OWNER_ONLY)[]) {
      expect(requireOwner(as("owner"), action)).toBeNull();
      expect(requireOwner(as("staff"), action)).toEqual({ status: 403, message: OWNER_ONLY[action] });
    }
  });
});

describe.each(testDatabaseKinds())("staff roles on %s", (kind) => {
  let database: TestDatabase;
  let stripe: FakeStripe;
  let env: Record<string, string>;
  let owner: { cookie: string; csrf: string };
  let clerk: { cookie: string; csrf: string };

  beforeAll(async () => {
    stripe = await startFakeStripe();
    env = {
      PUBLIC_BASE_URL: TEST_ORIGIN,
      STRIPE_SECRET_KEY: "sk_test_roles",
      STRIPE_PUBLISHABLE_KEY: "pk_test_roles",
      STRIPE_API_BASE: stripe.url,
    };
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, env);
    await createStaffAccount(database.db, { email: OWNER, password: PASSWORD, role: "owner" });
    await createStaffAccount(database.db, { email: CLERK, password: PASSWORD, role: "staff" });
    owner = await signIn(OWNER);
    clerk = await signIn(CLERK);
  });
  afterAll(async () => {
    await database?.dispose();
    await stripe?.close();
  });
  beforeEach(() => {
    runtime = testRuntime(database, env);
  });

  async function signIn(email: string) {
    const page = await call(loginLoader as RouteFn, get("/login"));
    const first = { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf) };
    const signedIn = await call(
      loginAction as RouteFn,
      post("/login", { email, password: PASSWORD, csrf: first.csrf, redirectTo: "/dashboard" }, first.cookie),
    );
    expect(signedIn.status).toBe(303);
    const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", cookieFrom(signedIn.headers.get("Set-Cookie"))));
    return { cookie: cookieFrom(dashboard.headers.get("Set-Cookie")), csrf: String(dashboard.data!.csrf) };
  }

  /** An order paid with Stripe (the payment seeded at the fake), shipped unless `status` says, with an approved return of one grill. */
  async function paidOrder({ status = "Shipped" }: { status?: "Shipped" | "Cancelled" } = {}) {
    made += 1;
    const suffix = `${Date.now().toString(36).toUpperCase().slice(-5)}${made}`;
    const attemptId = `pa_roles${suffix}`;
    const checkoutToken = `ck_roles_${suffix}`;
    const paymentId = `pi_roles${suffix}`;
    stripe.paymentIntents.set(paymentId, succeededIntent({ id: paymentId, amount: TOTAL, attemptId }));
    const order = testOrder({
      items: ITEMS,
      subtotalCents: 20_000,
      shippingCents: 695,
      totalCents: TOTAL,
      paymentMethod: "stripe",
      paymentProvider: "stripe",
      paymentReference: paymentId,
      checkoutToken,
      status,
      email: `shopper.${suffix.toLowerCase()}@example.com`,
    });
    await database.db.insert(orders).values(order);
    await database.db.insert(paymentAttempts).values({
      id: attemptId,
      checkoutToken,
      method: "stripe",
      provider: "stripe",
      reference: paymentId,
      paymentId,
      amountCents: TOTAL,
      status: "approved",
    });
    const number = `R-${suffix}`.slice(0, 18);
    const [request] = await database.db
      .insert(afterSaleRequests)
      .values({
        number,
        orderId: order.orderId,
        kind: "return",
        status: "approved",
        reason: "Changed my mind",
        authorizationNumber: `RA-${suffix.padEnd(8, "2").slice(0, 8)}`,
      })
      .returning();
    await database.db
      .insert(afterSaleLines)
      .values({ requestId: request.id, orderId: order.orderId, lineIndex: 0, productKey: "blaze-1", quantity: 1 });
    return { orderId: order.orderId, attemptId, paymentId, number, requestId: request.id };
  }

  const refundCalls = () => stripe.requests.filter((request) => request.path === "/v1/refunds");
  const attemptOf = async (id: string) => (await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0]!;
  const requestOf = async (id: string) => (await database.db.select().from(afterSaleRequests).where(eq(afterSaleRequests.id, id)))[0]!;
  const refundDash = (browser: { cookie: string; csrf: string }, attemptId: string) =>
    call(dashboardAction as RouteFn, post("/dashboard", { intent: "refund", attemptId, csrf: browser.csrf }, browser.cookie));
  const desk = (browser: { cookie: string; csrf: string }, number: string, values: Record<string, string>) =>
    call(deskAction as RouteFn, post(`/returns/${number}`, { csrf: browser.csrf, ...values }, browser.cookie), { number });

  it("tells the pages who is signed in, as what, and whether to offer refunds", async () => {
    const { number } = await paidOrder();
    const ownerPage = await call(dashboardLoader as RouteFn, get("/dashboard", owner.cookie));
    const clerkPage = await call(dashboardLoader as RouteFn, get("/dashboard", clerk.cookie));
    expect(ownerPage.data).toMatchObject({ staffEmail: OWNER, staffRole: "owner", mayRefund: true });
    expect(clerkPage.data).toMatchObject({ staffEmail: CLERK, staffRole: "staff", mayRefund: false });
    const ownerDesk = await call(deskLoader as RouteFn, get(`/returns/${number}`, owner.cookie), { number });
    const clerkDesk = await call(deskLoader as RouteFn, get(`/returns/${number}`, clerk.cookie), { number });
    expect(ownerDesk.data).toMatchObject({ staffRole: "owner", mayRefund: true });
    expect(clerkDesk.data).toMatchObject({ staffRole: "staff", mayRefund: false });
  });

  it("refuses a staff account's Refund on the dashboard with 403, changing nothing; an owner's goes through", async () => {
    const { attemptId, orderId } = await paidOrder();
    // Cancelling moves no money (the payment is refunded apart, with intent=refund): a staff account may.
    const cancelled = await call(
      dashboardAction as RouteFn,
      post("/dashboard", { intent: "status", orderId, status: "Cancelled", csrf: clerk.csrf }, clerk.cookie),
    );
    expect(cancelled.status).toBe(303);
    stripe.requests.length = 0;
    const before = await attemptOf(attemptId);
    const emails = async () => (await database.db.select({ id: emailDeliveries.id }).from(emailDeliveries)).length;
    const emailsBefore = await emails();

    const refused = await refundDash(clerk, attemptId);
    expect(refused.status).toBe(403);
    expect(flashOf(refused)).toEqual({ kind: "error", message: OWNER_ONLY.refunds });
    // The page is drawn again with its message, the session's cookie renewed.
    expect(refused.headers.get("Set-Cookie")).toBeTruthy();
    expect(stripe.requests).toHaveLength(0);
    expect(await attemptOf(attemptId)).toEqual(before);
    expect(await database.db.select().from(paymentAuditEntries).where(eq(paymentAuditEntries.attemptId, attemptId))).toEqual([]);
    expect(await emails()).toBe(emailsBefore);

    const refunded = await refundDash(owner, attemptId);
    expect(refunded.status).toBe(303);
    expect(refundCalls()).toHaveLength(1);
    expect((await attemptOf(attemptId)).refundedAt).not.toBeNull();
    expect(await database.db.select().from(paymentAuditEntries).where(eq(paymentAuditEntries.attemptId, attemptId))).toEqual([
      expect.objectContaining({ staffEmail: OWNER, outcome: "refunded" }),
    ]);
    expect(await emails()).toBeGreaterThan(emailsBefore);
  });

  it("refuses a staff account's receive-and-refund on the returns desk with 403, changing nothing; approve and decline stay theirs", async () => {
    const { number, requestId, paymentId } = await paidOrder();
    stripe.requests.length = 0;
    const before = await requestOf(requestId);

    for (const amount of ["100.00", "0.00"]) {
      const refused = await desk(clerk, number, { intent: "receive", seen: "approved", amount });
      expect(refused.status).toBe(403);
      expect(flashOf(refused)).toEqual({ kind: "error", message: OWNER_ONLY.refunds });
    }
    expect(await requestOf(requestId)).toEqual(before);
    expect(await database.db.select().from(afterSaleEvents).where(eq(afterSaleEvents.requestId, requestId))).toEqual([]);
    expect(
      await database.db
        .select()
        .from(stockMovements)
        .where(eq(stockMovements.source, `return:${requestId}`)),
    ).toEqual([]);
    expect(stripe.requests).toHaveLength(0);
    expect(stripe.refundsOf(paymentId)).toEqual([]);

    const received = await desk(owner, number, { intent: "receive", seen: "approved", amount: "100.00" });
    expect(received.status).toBe(303);
    expect(await requestOf(requestId)).toMatchObject({ status: "refunded", refundCents: 10_000 });
    expect(stripe.refundsOf(paymentId)).toEqual([expect.objectContaining({ amount: 10_000, status: "succeeded" })]);

    // Approving and declining move no money: a staff account does both.
    const other = await paidOrder();
    await database.db
      .update(afterSaleRequests)
      .set({ status: "requested", authorizationNumber: null })
      .where(eq(afterSaleRequests.id, other.requestId));
    expect((await desk(clerk, other.number, { intent: "approve", seen: "requested" })).status).toBe(303);
    expect((await desk(clerk, other.number, { intent: "decline", seen: "approved", reason: "Outside the window." })).status).toBe(303);
    expect(await requestOf(other.requestId)).toMatchObject({ status: "declined" });
  });

  it("reads the role on every request: a demoted owner is refused at once, a promoted clerk may refund", async () => {
    const { attemptId } = await paidOrder({ status: "Cancelled" });
    await database.db.update(staffUsers).set({ role: "staff" }).where(eq(staffUsers.email, OWNER));
    await database.db.update(staffUsers).set({ role: "owner" }).where(eq(staffUsers.email, CLERK));
    try {
      stripe.requests.length = 0;
      expect((await refundDash(owner, attemptId)).status).toBe(403);
      expect(refundCalls()).toHaveLength(0);
      const page = await call(dashboardLoader as RouteFn, get("/dashboard", clerk.cookie));
      expect(page.data).toMatchObject({ staffRole: "owner", mayRefund: true });
      expect((await refundDash(clerk, attemptId)).status).toBe(303);
      expect(refundCalls()).toHaveLength(1);
    } finally {
      await database.db.update(staffUsers).set({ role: "owner" }).where(eq(staffUsers.email, OWNER));
      await database.db.update(staffUsers).set({ role: "staff" }).where(eq(staffUsers.email, CLERK));
    }
  });

  it("keeps the role in the table's rule: nothing but owner or staff", async () => {
    await expect(
      createStaffAccount(database.db, { email: "boss@example.com", password: PASSWORD, role: "admin" as StaffRole }),
    ).rejects.toThrow(/owner, staff/);
    await expect(
      database.db.insert(staffUsers).values({ email: "boss@example.com", passwordHash: "x", role: "admin" as StaffRole }),
    ).rejects.toThrow();
    const [fresh] = await database.db.insert(staffUsers).values({ email: "plain@example.com", passwordHash: "x" }).returning();
    expect(fresh.role).toBe("staff");
    await database.db.delete(staffUsers).where(eq(staffUsers.id, fresh.id));
  });
});
