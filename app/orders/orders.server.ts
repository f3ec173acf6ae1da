import { eq, or } from "drizzle-orm";
import type { Checkout } from "~/checkout/checkout.server";
import type { Database } from "~/db/database.server";
import type { ServiceDeps } from "~/store-runtime";
import { checkouts, orders } from "~/db/schema";
import { promoHeldByAnotherCheckout, redeemPromo } from "~/pricing/promo-redemptions.server";
import { generateOrderId, normalizeOrderId } from "./order-id";
import { orders as ordersCounted } from "~/observability/metrics.server";
import { queueTaxRecording, recordOrderTaxCommit } from "~/tax/tax-transactions.server";
import { allocateOrderStock, StockGone, type Shortage } from "~/stock/stock.server";

export type Order = typeof orders.$inferSelect;

export type RecordedCheckout =
  | { status: "created" | "existing"; order: Order }
  /** The checkout's first-purchase code went to another checkout of this customer meanwhile: no order. */
  | { status: "promo-taken" }
  /** The last units went to another order meanwhile: no order. */
  | { status: "stock-gone"; shortages: Shortage[] };

class PromoTaken extends Error {}

/**
 * Turns a checkout whose payment the provider verified into an order, once
 * per checkout and once per payment: the unique checkout token and payment
 * reference make a repeated confirmation return the order already recorded,
 * with no read-then-write race. A checkout whose discount no longer belongs to
 * it (a payment that arrived after the shopper gave up, while another checkout
 * of the same customer used the code), or whose last units another order took, records nothing. The
 * order's stock allocation and tax transaction are written in the same database transaction.
 */
export async function recordPaidCheckout(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  checkout: Checkout,
  payment: { reference: string; method: string; provider: string },
): Promise<RecordedCheckout> {
  try {
    const recorded = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(orders)
        .values({
          orderId: generateOrderId(),
          checkoutToken: checkout.token,
          customer: checkout.customer,
          items: checkout.items,
          subtotalCents: checkout.subtotalCents,
          shippingCents: checkout.shippingCents,
          discountCents: checkout.discountCents,
          taxCents: checkout.taxCents,
          tax: checkout.tax,
          totalCents: checkout.totalCents,
          paymentMethod: payment.method,
          paymentProvider: payment.provider,
          paymentReference: payment.reference,
          status: "Approved",
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        if (checkout.promoCode) await redeemOrThrow(tx, checkout, inserted.orderId);
        // The order's stock is taken with it, by conditional updates that never go below zero.
        await allocateOrderStock(tx, checkout, inserted.orderId);
        // The order's tax is recorded with it: committed at the provider by the tax.record sweep, once.
        await recordOrderTaxCommit(tx, inserted);
        await tx
          .update(checkouts)
          .set({ status: "paid", orderId: inserted.orderId, collectingAttemptId: null, collectingUntil: null })
          .where(eq(checkouts.token, checkout.token));
        return { status: "created", order: inserted } as const;
      }
      const [existing] = await tx
        .select()
        .from(orders)
        .where(or(eq(orders.checkoutToken, checkout.token), eq(orders.paymentReference, payment.reference)))
        .limit(1);
      return { status: "existing", order: existing } as const;
    });
    if (recorded.status === "created") {
      ordersCounted.inc({ provider: payment.provider });
      await queueTaxRecording(jobs);
    }
    return recorded;
  } catch (error) {
    if (error instanceof PromoTaken) return { status: "promo-taken" };
    if (error instanceof StockGone) return { status: "stock-gone", shortages: error.shortages };
    throw error;
  }
}

/** First purchase only: the unique redemption decides, and a reservation held by another checkout of the customer wins. */
async function redeemOrThrow(tx: Pick<Database, "select" | "insert">, checkout: Checkout, orderId: string) {
  const code = checkout.promoCode ?? "";
  const { email } = checkout.customer;
  const taken =
    (await promoHeldByAnotherCheckout(tx, { code, email, checkoutToken: checkout.token })) ||
    !(await redeemPromo(tx, { code, email, orderId }));
  if (taken) throw new PromoTaken(`${code} belongs to another checkout of ${email}`);
}

/** An order by the display id a shopper typed, or null. */
export async function findOrderByDisplayId(db: Database, input: string): Promise<Order | null> {
  const orderId = normalizeOrderId(input);
  if (!/^[A-Z0-9]{6,20}$/.test(orderId)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  return order ?? null;
}
