import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCartCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { openDatabase } from "~/db/database.server";
import {
  afterSaleLines,
  afterSaleRequests,
  orders,
  paymentAttempts,
  products,
  productStock,
  stockHolds,
  stockMovements,
} from "~/db/schema";
import { listMoneyProblems } from "~/payments/money-problems.server";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { updateOrderStatus } from "~/staff/dashboard.server";
import { receiveAndRefund } from "~/staff/returns-desk-flow.server";
import { sweepExpiredHolds } from "~/stock/stock-holds.server";
import { seedStock, setOnHand, STOCK_GONE_MESSAGE, stockLevel, stockLevels } from "~/stock/stock.server";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { storeOf, TEST_ORIGIN, withJobs } from "../support/test-runtime";

/**
 * Stock from the checkout to the shelf and back: the last units are never sold twice, whatever the number
 * of shoppers paying at once (on PostgreSQL through two connection pools, as two store processes), holds
 * expire, a payment that arrives for stock gone is refunded at once, and cancellations and returns put
 * units back once each.
 */
const GRILL = "blaze-9301";
const COVER = "blaze-9302";
const FIRE_BOWL = "the_outdoor_plus-9303";
const config = parseConfig({ NODE_ENV: "test", PUBLIC_BASE_URL: TEST_ORIGIN });
const staff = { id: "00000000-0000-4000-8000-000000000009", email: "stock@example.com", role: "owner" as const };

describe.each(testDatabaseKinds())("stock on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(products).values([testProduct(GRILL, 250_000), testProduct(COVER, 4_000), testProduct(FIRE_BOWL, 90_000)]);
    expect(await seedStock(database.db, 50)).toBe(3);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const checkoutOf = (email: string, productKey = GRILL, quantity = 1) =>
    createCartCheckout(storeOf(database.db, config), [{ productKey, quantity }], checkoutCustomer({ email }));
  const setStock = (productKey: string, onHand: number) =>
    database.db.update(productStock).set({ onHand, reserved: 0 }).where(eq(productStock.productKey, productKey));
  const stockRow = async (productKey: string) =>
    (await database.db.select().from(productStock).where(eq(productStock.productKey, productKey)))[0]!;

  async function approveAndConfirm(db: TestDatabase["db"], checkout: Checkout, attemptId: string, reference: string) {
    await decideTestPayment(db, reference, "approved");
    return confirmPayment(storeOf(db, config), { method: "paypal", checkoutToken: checkout.token, attemptId });
  }

  it("gives every product a row once: tracked with the default count, the made-to-order brand its lead time", async () => {
    expect(await stockRow(GRILL)).toMatchObject({ policy: "tracked", onHand: 50, reserved: 0 });
    expect(await stockRow(FIRE_BOWL)).toMatchObject({ policy: "made-to-order", leadTime: "4 - 6 weeks" });
    await setStock(COVER, 7);
    expect(await seedStock(database.db, 50)).toBe(0);
    expect(await stockRow(COVER)).toMatchObject({ onHand: 7 });
  });

  it("sells the last 3 units to exactly 3 of 100 shoppers paying at once, and holds nobody else's money", async () => {
    await setStock(GRILL, 3);
    const shoppers = await Promise.all(Array.from({ length: 100 }, (_, index) => checkoutOf(`last-unit-${index}@example.com`)));
    // On PostgreSQL half of them go through a second connection pool, as through a second store process.
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const started = await Promise.all(
        shoppers.map((checkout, index) =>
          startPayment(storeOf(index % 2 === 1 && second ? second.db : database.db, config), { checkout, method: "paypal" }),
        ),
      );
      const paying = started.flatMap((result, index) => (result.status === "started" ? [{ checkout: shoppers[index]!, result }] : []));
      expect(paying).toHaveLength(3);
      expect(started.filter((result) => result.status === "out-of-stock")).toHaveLength(97);
      expect(started.find((result) => result.status === "out-of-stock")).toMatchObject({
        message: expect.stringMatching(/is out of stock\. Please change your order: nothing was charged\.$/),
      });
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 3, reserved: 3 });

      const paid = await Promise.all(
        paying.map(({ checkout, result }, index) =>
          approveAndConfirm(index % 2 === 1 && second ? second.db : database.db, checkout, result.attemptId, result.payment.reference),
        ),
      );
      expect(paid.map((outcome) => outcome.status)).toEqual(["paid", "paid", "paid"]);
    } finally {
      await second?.close();
    }
    expect(await stockRow(GRILL)).toMatchObject({ onHand: 0, reserved: 0 });
    const sales = await database.db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.productKey, GRILL), eq(stockMovements.reason, "sale")));
    expect(sales).toHaveLength(3);
    expect(Math.min(...sales.map((sale) => sale.onHandAfter))).toBe(0);
    expect(await stockLevel(database.db, GRILL)).toEqual({ policy: "tracked", available: 0 });
  });

  it("refunds at once a payment that arrives after its hold expired and the last unit went to another order", async () => {
    const log = expectErrorLog();
    await setStock(COVER, 1);
    const late = await checkoutOf("late.payer@example.com", COVER);
    const lateStart = await startPayment(storeOf(database.db, config), { checkout: late, method: "paypal" });
    if (lateStart.status !== "started") throw new Error(lateStart.status);
    // Its hold runs out and the sweep gives the unit back; another shopper buys it.
    await database.db
      .update(stockHolds)
      .set({ expiresAt: new Date(0) })
      .where(eq(stockHolds.checkoutToken, late.token));
    expect(await sweepExpiredHolds(withJobs(database.db))).toBeGreaterThanOrEqual(1);
    const quick = await checkoutOf("quick.payer@example.com", COVER);
    const quickStart = await startPayment(storeOf(database.db, config), { checkout: quick, method: "paypal" });
    if (quickStart.status !== "started") throw new Error(quickStart.status);
    expect((await approveAndConfirm(database.db, quick, quickStart.attemptId, quickStart.payment.reference)).status).toBe("paid");

    const outcome = await approveAndConfirm(database.db, late, lateStart.attemptId, lateStart.payment.reference);
    expect(outcome).toEqual({ status: "declined", message: STOCK_GONE_MESSAGE, checkoutPath: expect.any(String) });
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, lateStart.attemptId));
    expect(attempt).toMatchObject({
      status: "approved",
      refundReason: "stock-gone",
      refundReference: expect.stringMatching(/^test-refund-/),
    });
    expect(await database.db.select().from(orders).where(eq(orders.checkoutToken, late.token))).toEqual([]);
    // Staff see it beside the other payments the store gave back (a real provider's: test payments are listed apart).
    await database.db.update(paymentAttempts).set({ provider: "paypal" }).where(eq(paymentAttempts.id, lateStart.attemptId));
    expect((await listMoneyProblems(database.db)).chargedTwice).toContainEqual(
      expect.objectContaining({ attemptId: lateStart.attemptId, why: "stock-gone" }),
    );
    expect(await stockRow(COVER)).toMatchObject({ onHand: 0, reserved: 0 });
    // The return page again: the same answer, nothing more refunded.
    expect((await approveAndConfirm(database.db, late, lateStart.attemptId, lateStart.payment.reference)).status).toBe("declined");
    expect(log.messages().join("\n")).toMatch(/stock gone/);
  });

  it("gives a declined payment's hold back at once", async () => {
    await setStock(COVER, 2);
    const checkout = await checkoutOf("declined.card@example.com", COVER, 2);
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(started.status);
    expect(await stockRow(COVER)).toMatchObject({ reserved: 2 });
    await decideTestPayment(database.db, started.payment.reference, "declined");
    await confirmPayment(storeOf(database.db, config), { method: "paypal", checkoutToken: checkout.token, attemptId: started.attemptId });
    expect(await stockRow(COVER)).toMatchObject({ onHand: 2, reserved: 0 });
  });

  it("puts a cancelled order's units back once, takes them again when it is set back, and refuses that when they are gone", async () => {
    await setStock(COVER, 2);
    const checkout = await checkoutOf("cancel.me@example.com", COVER, 2);
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(started.status);
    const paid = await approveAndConfirm(database.db, checkout, started.attemptId, started.payment.reference);
    if (paid.status !== "paid") throw new Error(paid.status);
    const orderId = paid.order.orderId;
    expect(await stockRow(COVER)).toMatchObject({ onHand: 0 });

    // A real provider's order, so that its cancellation can be undone (a test-page order's gives its tax back and stays cancelled).
    await database.db.update(orders).set({ paymentProvider: "stripe" }).where(eq(orders.orderId, orderId));
    expect(await updateOrderStatus(withJobs(database.db), { orderId, status: "Cancelled", staff })).toMatchObject({ ok: true });
    expect(await updateOrderStatus(withJobs(database.db), { orderId, status: "Cancelled", staff })).toMatchObject({ changed: false });
    expect(await stockRow(COVER)).toMatchObject({ onHand: 2 });
    expect(await updateOrderStatus(withJobs(database.db), { orderId, status: "Approved", staff })).toMatchObject({ ok: true });
    expect(await stockRow(COVER)).toMatchObject({ onHand: 0 });

    expect(await updateOrderStatus(withJobs(database.db), { orderId, status: "Cancelled", staff })).toMatchObject({ ok: true });
    expect((await setOnHand(database.db, { productKey: COVER, onHand: 1, reason: "count", actor: staff.email })).ok).toBe(true);
    expect(await updateOrderStatus(withJobs(database.db), { orderId, status: "Approved", staff })).toMatchObject({
      ok: false,
      reason: "out-of-stock",
      message: expect.stringMatching(/^Only 1 of “Test product .*” are left \(the order has 2\)\.$/),
    });
    const [order] = await database.db.select().from(orders).where(eq(orders.orderId, orderId));
    expect(order!.status).toBe("Cancelled");
    const moves = await database.db.select().from(stockMovements).where(eq(stockMovements.orderId, orderId));
    expect(moves.map((move) => move.delta)).toEqual([-2, 2, -2, 2]);
  });

  it("restocks a received return unless staff mark it damaged, and refuses a count below what checkouts hold", async () => {
    await setStock(COVER, 5);
    const checkout = await checkoutOf("return.me@example.com", COVER, 2);
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(started.status);
    const paid = await approveAndConfirm(database.db, checkout, started.attemptId, started.payment.reference);
    if (paid.status !== "paid") throw new Error(paid.status);
    const orderId = paid.order.orderId;
    await database.db
      .update(orders)
      .set({ status: "Shipped", shippedAt: new Date(), deliveredAt: new Date() })
      .where(eq(orders.orderId, orderId));
    const request = async (number: string) => {
      const [row] = await database.db
        .insert(afterSaleRequests)
        .values({ number, orderId, kind: "return", status: "approved", reason: "Changed my mind" })
        .returning();
      await database.db.insert(afterSaleLines).values({ requestId: row!.id, orderId, lineIndex: 0, productKey: COVER, quantity: 1 });
      return number;
    };
    expect(await stockRow(COVER)).toMatchObject({ onHand: 3 });
    const first = await request(`R-ST${orderId.slice(-6)}`);
    expect(await receiveAndRefund(storeOf(database.db, config), { number: first, seen: "approved", amount: "10.00", staff })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(await stockRow(COVER)).toMatchObject({ onHand: 4 });
    const second = await request(`R-SU${orderId.slice(-6)}`);
    expect(
      await receiveAndRefund(storeOf(database.db, config), { number: second, seen: "approved", amount: "10.00", damaged: true, staff }),
    ).toMatchObject({
      ok: true,
    });
    expect(await stockRow(COVER)).toMatchObject({ onHand: 4 });

    const holder = await checkoutOf("holder@example.com", COVER, 3);
    expect((await startPayment(storeOf(database.db, config), { checkout: holder, method: "paypal" })).status).toBe("started");
    expect(await setOnHand(database.db, { productKey: COVER, onHand: 2, reason: "count", actor: staff.email })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/3 of .* are held by checkouts paying now/),
    });
  });

  it("never counts a made-to-order product: any quantity is bought, its lead time shown", async () => {
    const checkout = await checkoutOf("bowl@example.com", FIRE_BOWL, 9);
    expect((await startPayment(storeOf(database.db, config), { checkout, method: "paypal" })).status).toBe("started");
    expect(await stockLevel(database.db, FIRE_BOWL)).toEqual({ policy: "made-to-order", leadTime: "4 - 6 weeks" });
  });

  it("reads the levels of a page's products in one query, each product once, an uncounted one as untracked", async () => {
    await setOnHand(database.db, { productKey: GRILL, onHand: 4, reason: "count", actor: staff.email });
    const levels = await stockLevels(database.db, [GRILL, FIRE_BOWL, "no-such-product", GRILL]);
    expect([...levels]).toEqual([
      [GRILL, { policy: "tracked", available: 4 }],
      [FIRE_BOWL, { policy: "made-to-order", leadTime: "4 - 6 weeks" }],
      ["no-such-product", { policy: "untracked" }],
    ]);
    expect(await stockLevels(database.db, [])).toEqual(new Map());
  });
});
