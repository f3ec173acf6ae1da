import { storeOf, withJobs } from "../support/test-runtime";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ABANDONED_CHECKOUT_AGE_MS,
  CLEANUP_EVERY_MS,
  cleanUpAbandonedCheckouts,
  deleteAbandonedCheckouts,
} from "~/checkout/abandoned-checkouts.server";
import { createCartCheckout, type Checkout } from "~/checkout/checkout.server";
import { checkouts, orders, paymentAttempts, products, promoReservations, testPayments } from "~/db/schema";
import { createJobs } from "~/jobs/queue.server";
import { createAttempt, markAttemptDeclined } from "~/payments/attempts.server";
import { checkoutCustomer, testOrder, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

/**
 * Issue 40: every Proceed to Payment records a checkout, and nothing removed the ones never paid. A job
 * deletes the checkouts abandoned long ago, in batches, and never one a payment attempt (in any state),
 * an order, a test payment or a LOVERUB10 reservation refers to.
 */
const customer = checkoutCustomer({ email: "ada.cleanup@example.com" });
const DAY = 24 * 60 * 60_000;

describe.each(testDatabaseKinds())("the clean-up of abandoned checkouts on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(products).values(testProduct("blaze-4899", 4899));
  });
  afterAll(async () => {
    await database?.dispose();
  });
  const jobs = createJobs();
  afterEach(async () => {
    await jobs.stop();
  });

  const now = new Date();
  const newCheckout = () => createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4899", quantity: 1 }], customer);
  async function checkoutAged(ageMs: number): Promise<Checkout> {
    const checkout = await newCheckout();
    const createdAt = new Date(now.getTime() - ageMs);
    await database.db.update(checkouts).set({ createdAt }).where(eq(checkouts.token, checkout.token));
    return checkout;
  }
  const old = () => checkoutAged(ABANDONED_CHECKOUT_AGE_MS + DAY);
  async function stillThere(list: Checkout[]): Promise<string[]> {
    const tokens = list.map((checkout) => checkout.token);
    const rows = await database.db.select({ token: checkouts.token }).from(checkouts).where(inArray(checkouts.token, tokens));
    return tokens.filter((token) => rows.some((row) => row.token === token));
  }

  it("deletes old abandoned checkouts in batches and keeps recent ones and every one something refers to", async () => {
    await deleteAbandonedCheckouts(database.db, { now }); // what the other tests left
    const abandoned = [await old(), await old(), await old(), await old(), await old()];
    const recent = await checkoutAged(ABANDONED_CHECKOUT_AGE_MS - DAY);

    const withDeclinedAttempt = await old();
    const declined = await createAttempt(withJobs(database.db), {
      checkoutToken: withDeclinedAttempt.token,
      method: "paypal",
      provider: "paypal",
      amountCents: 4899,
    });
    await markAttemptDeclined(database.db, declined.id, "declined");
    const withStartedAttempt = await old();
    await createAttempt(withJobs(database.db), {
      checkoutToken: withStartedAttempt.token,
      method: "stripe",
      provider: "stripe",
      amountCents: 4899,
    });
    const paid = await old();
    await database.db.insert(orders).values(testOrder({ checkoutToken: paid.token }));
    await database.db.update(checkouts).set({ status: "paid", orderId: "T-CLEANUP" }).where(eq(checkouts.token, paid.token));
    const withOrderOnly = await old();
    await database.db.insert(orders).values(testOrder({ checkoutToken: withOrderOnly.token }));
    const withTestPayment = await old();
    await database.db
      .insert(testPayments)
      .values({ id: "tp_cleanup", checkoutToken: withTestPayment.token, method: "card", amountCents: 4899 });
    const withReservation = await old();
    await database.db
      .insert(promoReservations)
      .values({ code: "LOVERUB10", email: "cleanup@example.com", checkoutToken: withReservation.token });
    const kept = [recent, withDeclinedAttempt, withStartedAttempt, paid, withOrderOnly, withTestPayment, withReservation];

    expect(await deleteAbandonedCheckouts(database.db, { now, batchSize: 2 })).toBe(abandoned.length);
    expect(await stillThere(abandoned)).toEqual([]);
    expect(await stillThere(kept)).toEqual(kept.map((checkout) => checkout.token));
    expect(
      await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, withDeclinedAttempt.token)),
    ).toHaveLength(1);
  });

  it("stops after its batches for the run, leaving the rest to the next", async () => {
    await deleteAbandonedCheckouts(database.db, { now });
    const abandoned = [await old(), await old(), await old()];
    expect(await deleteAbandonedCheckouts(database.db, { now, batchSize: 1, maxBatches: 2 })).toBe(2);
    expect(await stillThere(abandoned)).toHaveLength(1);
  });

  it("runs as a job that queues its next run on the next hour, one job however many processes queue it", async () => {
    await jobs.start(database, { logger: { error: () => {}, warn: () => {} } });
    await database.executeSql(`delete from pgboss.job where name = 'checkout.cleanup'`);
    const abandoned = await old();
    await Promise.all([
      cleanUpAbandonedCheckouts(withJobs(database.db, jobs), now),
      cleanUpAbandonedCheckouts(withJobs(database.db, jobs), now),
    ]);
    expect(await stillThere([abandoned])).toEqual([]);
    const waiting = await database.executeSql(
      `select start_after from pgboss.job where name = 'checkout.cleanup' and state = 'created' order by start_after`,
    );
    const nextHour = (Math.floor(now.getTime() / CLEANUP_EVERY_MS) + 1) * CLEANUP_EVERY_MS;
    expect(waiting.rows.map((row) => new Date(row.start_after as string).getTime())).toEqual([nextHour]);
  });
});
