import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCookieHeader } from "~/cart/cart-cookie.server";
import { priceCart, priceCartForDisplay } from "~/cart/cart-view.server";
import { createCartCheckout, getCheckout, OrderTooLargeError, toOrderCustomer } from "~/checkout/checkout.server";
import { singleCheckoutAction } from "~/checkout/single-checkout.server";
import { checkouts, emailOutbox, orders, paymentAttempts, products } from "~/db/schema";
import { parseConfig } from "~/config.server";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { action as cartAction } from "~/routes/cart";
import { action as checkoutAction } from "~/routes/checkout";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { postRequest, TEST_ORIGIN, testContext, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

const customer = checkoutCustomer();

describe.each(testDatabaseKinds())("checkout and orders on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db
      .insert(products)
      .values([
        testProduct("blaze-4899", 4899),
        testProduct("blaze-4900", 4900),
        testProduct("blaze-4901", 4901),
        testProduct("custom_product-LOVE-RUB-001", 1599),
      ]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function orderCount() {
    const [{ value }] = await database.db.select({ value: count() }).from(orders);
    return value;
  }

  const config = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });

  /** Starts a payment on the test page and approves or declines it there; returns the attempt id. */
  async function pay(checkoutToken: string, decision: "approved" | "declined" | "none", method: "stripe" | "paypal" = "stripe") {
    const checkout = (await getCheckout(database.db, checkoutToken))!;
    const started = await startPayment(storeOf(database.db, config), { checkout, method });
    if (started.status !== "started") throw new Error(`payment not started: ${started.status}`);
    if (decision !== "none") await decideTestPayment(database.db, started.payment.reference, decision);
    return started.attemptId;
  }

  const confirm = (checkoutToken: string, attemptId: string, method: "stripe" | "paypal" = "stripe") =>
    confirmPayment(storeOf(database.db, config), { method, checkoutToken, attemptId });

  it.each([
    ["blaze-4899", 695, 5594],
    ["blaze-4900", 695, 5595],
    ["blaze-4901", 0, 4901],
  ])("a cart of %s pays %i shipping and %i in total", async (key, shipping, total) => {
    const priced = await priceCart(database.db, [{ productKey: key, quantity: 1 }]);
    expect(priced.shippingCents).toBe(shipping);
    expect(priced.totalCents).toBe(total);
  });

  it("the cart every page shows (priced from the catalogue memo) is the cart the database prices", async () => {
    const cart = [
      { productKey: "blaze-4899", quantity: 2 },
      { productKey: "no-longer-sold", quantity: 1 },
      { productKey: "custom_product-LOVE-RUB-001", quantity: 3 },
    ];
    const fromDatabase = await priceCart(database.db, cart);
    expect(fromDatabase.lines.map((line) => line.position)).toEqual([0, 2]);
    expect(await priceCartForDisplay(database.db, cart)).toEqual(fromDatabase);
    expect(await priceCartForDisplay(database.db, cart), "from the memo the second time").toEqual(fromDatabase);
  });

  it("applies LOVERUB10 in any case and refuses other codes", async () => {
    const submit = (promoCode: string) =>
      singleCheckoutAction(
        runtime,
        postRequest("/custom-product-checkout", { intent: "update", quantity: 1, promoCode }),
        "seasoning",
        "198.51.100.7",
      );
    const good = (await submit("loverub10")) as unknown as {
      data: { totals: { discountCents: number; totalCents: number }; promoMessage: string | null };
    };
    expect(good.data.totals.discountCents).toBe(160);
    expect(good.data.totals.totalCents).toBe(1599 - 160 + 699);
    expect(good.data.promoMessage).toBeNull();
    const bad = (await submit("LOVERUB20")) as unknown as { data: { totals: { discountCents: number }; promoMessage: string } };
    expect(bad.data.totals.discountCents).toBe(0);
    expect(bad.data.promoMessage).toBe("Invalid promo code");
  });

  it("refuses an unknown product with its own message and keeps the cart", async () => {
    const response = (await cartAction({
      request: postRequest("/cart", { intent: "add", productKey: "blaze-nope", quantity: 1 }),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(response.headers.get("Location")).toBe("/cart?notice=unavailable");
  });

  it("ignores prices and totals sent by the browser", async () => {
    const request = postRequest("/checkout", { ...customer, price: 1, totalCents: 1, subtotal: 1, shipping: 0 });
    const cookie = (await cartCookieHeader(runtime, request, [{ productKey: "blaze-4901", quantity: 2 }])).split(";")[0];
    const response = (await checkoutAction({
      request: postRequest("/checkout", { ...customer, price: 1, totalCents: 1, subtotal: 1, shipping: 0 }, cookie),
      params: {},
      context: testContext(runtime),
    })) as Response;
    expect(response.status).toBe(302);
    const token = new URL(response.headers.get("Location")!, TEST_ORIGIN).searchParams.get("checkout")!;
    const checkout = await getCheckout(database.db, token);
    expect(checkout).toMatchObject({ subtotalCents: 9802, shippingCents: 0, totalCents: 9802 });
  });

  it("records no order for a declined payment", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
    const before = await orderCount();
    const attemptId = await pay(checkout.token, "declined");
    const outcome = await confirm(checkout.token, attemptId);
    expect(outcome.status).toBe("declined");
    expect(await orderCount()).toBe(before);
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("records one order and sends one email however often an approval is confirmed", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4901", quantity: 1 }], customer);
    const attemptId = await pay(checkout.token, "approved");
    const again = () => confirm(checkout.token, attemptId);
    const first = await again();
    const second = await again();
    const [third, fourth] = await Promise.all([again(), again()]);
    expect(first.status).toBe("paid");
    const ids = [first, second, third, fourth].map((o) => (o.status === "paid" ? o.order.orderId : null));
    expect(new Set(ids).size).toBe(1);
    const rows = await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "Approved", totalCents: 4901, paymentMethod: "stripe", paymentProvider: "test" });
    expect(rows[0].orderId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    const emails = await database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, customer.email));
    expect(emails.filter((e) => e.textBody.includes(rows[0].orderId))).toHaveLength(1);
    expect(emails.find((e) => e.textBody.includes(rows[0].orderId))?.textBody).toContain(`/order-status/${rows[0].orderId}`);
    const [paid] = await database.db.select().from(checkouts).where(eq(checkouts.token, checkout.token));
    expect(paid).toMatchObject({ status: "paid", orderId: rows[0].orderId });
  });

  it("does not record an unapproved (pending) payment", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4901", quantity: 1 }], customer);
    const attemptId = await pay(checkout.token, "none", "paypal");
    expect((await confirm(checkout.token, attemptId, "paypal")).status).toBe("pending");
    // The attempt was made for PayPal: it cannot confirm a card payment.
    expect((await confirm(checkout.token, attemptId, "stripe")).status).toBe("unknown");
  });

  it("binds a payment to the checkout it was created for", async () => {
    const [a, b] = await Promise.all([
      createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4900", quantity: 1 }], customer),
      createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4900", quantity: 1 }], customer),
    ]);
    const attemptForA = await pay(a.token, "approved");
    const before = await orderCount();
    expect((await confirm(b.token, attemptForA)).status).toBe("unknown");
    expect(await orderCount()).toBe(before);
    expect((await getCheckout(database.db, b.token))?.status).toBe("pending");
  });

  it("records one order when two payments are approved for one checkout, and flags the second", async () => {
    const logged = expectErrorLog();
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 2 }], customer);
    const first = await pay(checkout.token, "approved");
    const second = await pay(checkout.token, "approved");
    const together = await Promise.all([confirm(checkout.token, first), confirm(checkout.token, second)]);
    // One takes the checkout; the other either sees it paid or, while the first is still at it, is asked to wait.
    expect(together.map((outcome) => outcome.status).sort()).toContain("paid");
    const [one, two] = [await confirm(checkout.token, first), await confirm(checkout.token, second)];
    expect(one.status).toBe("paid");
    expect(two.status).toBe("paid");
    if (one.status === "paid" && two.status === "paid") {
      expect(one.order.orderId).toBe(two.order.orderId);
      expect([one.chargedTwice, two.chargedTwice].sort()).toEqual([false, true]);
    }
    expect(await database.db.select().from(orders).where(eq(orders.checkoutToken, checkout.token))).toHaveLength(1);
    const attempts = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, checkout.token));
    expect(attempts.filter((attempt) => attempt.message?.startsWith("Duplicate payment"))).toHaveLength(1);
    expect(logged.messages()[0]).toMatch(/paid checkout .* again/);
  });

  it("neither offers nor accepts the test page when test payments are off", async () => {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4901", quantity: 1 }], customer);
    const attemptId = await pay(checkout.token, "approved");
    const off = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN, PAYMENTS_TEST_MODE: "off" });
    expect(await startPayment(storeOf(database.db, off), { checkout, method: "stripe" })).toEqual({ status: "unavailable" });
    const outcome = await confirmPayment(storeOf(database.db, off), { method: "stripe", checkoutToken: checkout.token, attemptId });
    expect(outcome.status).toBe("declined");
    expect((await getCheckout(database.db, checkout.token))?.status).toBe("pending");
  });

  it("refuses a cart over the order cap, and keeps totals above $21,474,836.47 exact (bigint cents)", async () => {
    await database.db.insert(products).values(testProduct("blaze-99999999", 99_999_999));
    const [before] = await database.db.select({ n: count() }).from(checkouts);
    await expect(createCartCheckout(storeOf(database.db), [{ productKey: "blaze-99999999", quantity: 30 }], customer)).rejects.toThrow(
      OrderTooLargeError,
    );
    expect((await database.db.select({ n: count() }).from(checkouts))[0].n).toBe(before.n);
    // The money columns are bigint all the same: a total past 2^31 cents survives the round trip.
    const [row] = await database.db
      .insert(checkouts)
      .values({
        token: "bigintcheckout0001",
        kind: "cart",
        customer: toOrderCustomer(customer),
        items: [],
        subtotalCents: 2_999_999_970,
        shippingCents: 0,
        discountCents: 0,
        totalCents: 2_999_999_970,
        promoCode: null,
      })
      .returning();
    expect((await getCheckout(database.db, row.token))?.totalCents).toBe(2_999_999_970);
  });

  it("gives two checkouts paid in parallel their own orders", async () => {
    const [a, b] = await Promise.all([
      createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4900", quantity: 1 }], customer),
      createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4900", quantity: 1 }], customer),
    ]);
    const [attemptA, attemptB] = await Promise.all([pay(a.token, "approved"), pay(b.token, "approved")]);
    const [oa, ob] = await Promise.all([confirm(a.token, attemptA), confirm(b.token, attemptB)]);
    expect(oa.status).toBe("paid");
    expect(ob.status).toBe("paid");
    if (oa.status === "paid" && ob.status === "paid") expect(oa.order.orderId).not.toBe(ob.order.orderId);
  });
});
