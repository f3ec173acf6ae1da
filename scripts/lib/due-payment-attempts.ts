/**
 * Payment attempts the reconciler finds due after a busy spell: `count`
 * attempts on the offline test payment page, each `started`, its test payment
 * still pending, and its check due a minute ago. Asking about one reads the
 * checkout and the test payment and puts the check off, as a real provider's
 * "not yet" would. Used by the bench and the reconciler's tests.
 */
import { randomBytes } from "node:crypto";
import type { Database } from "../../app/db/database.server";
import { checkouts, paymentAttempts, testPayments } from "../../app/db/schema";

const AMOUNT_CENTS = 4_900;

export async function insertDueAttempts(db: Database, count: number, dueAt = new Date(Date.now() - 60_000)): Promise<string[]> {
  const run = randomBytes(6).toString("hex");
  const checkoutToken = `due-${run}`;
  await db.insert(checkouts).values({
    token: checkoutToken,
    kind: "cart",
    customer: {
      name: "Ada Lovelace",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      phone: "5125550100",
      address: "1 Main St",
      city: "Austin",
      state: "TX",
      postalCode: "78701",
      country: "USA",
    },
    items: [],
    subtotalCents: AMOUNT_CENTS,
    shippingCents: 0,
    totalCents: AMOUNT_CENTS,
  });
  const ids = Array.from({ length: count }, (_, index) => `pa_due${run}x${index}`);
  await db.insert(testPayments).values(ids.map((id) => ({ id: `tp_${id}`, checkoutToken, method: "stripe", amountCents: AMOUNT_CENTS })));
  await db.insert(paymentAttempts).values(
    ids.map((id) => ({
      id,
      checkoutToken,
      method: "stripe",
      provider: "test",
      reference: `tp_${id}`,
      amountCents: AMOUNT_CENTS,
      nextCheckAt: dueAt,
    })),
  );
  return ids;
}
