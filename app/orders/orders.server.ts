import { eq, or } from "drizzle-orm";
import type { Checkout } from "~/checkout/checkout.server";
import type { Database } from "~/db/database.server";
import { checkouts, orders } from "~/db/schema";
import { redeemPromo } from "~/pricing/promo-redemptions.server";
import { generateOrderId, normalizeOrderId } from "./order-id";
import { log } from "~/http/logger.server";

export type Order = typeof orders.$inferSelect;

/**
 * Turns a checkout whose payment the provider verified into an order, once
 * per checkout and once per payment: the unique checkout token and payment
 * reference make a repeated confirmation return the order already recorded,
 * with no read-then-write race. Returns whether this call created it.
 */
export async function recordPaidCheckout(
  db: Database,
  checkout: Checkout,
  payment: { reference: string; method: string; provider: string },
): Promise<{ order: Order; created: boolean }> {
  return db.transaction(async (tx) => {
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
        totalCents: checkout.totalCents,
        paymentMethod: payment.method,
        paymentProvider: payment.provider,
        paymentReference: payment.reference,
        status: "Approved",
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      if (checkout.promoCode) {
        // First purchase only: the unique index decides. Checkout refuses a used code before payment
        // (promoAlreadyRedeemed); this catches two pending checkouts paid one after the other.
        const first = await redeemPromo(tx, { code: checkout.promoCode, email: checkout.customer.email, orderId: inserted.orderId });
        if (!first) log("warn", `Order ${inserted.orderId}: ${checkout.promoCode} had already been used by this email; the order is kept.`);
      }
      await tx.update(checkouts).set({ status: "paid", orderId: inserted.orderId }).where(eq(checkouts.token, checkout.token));
      return { order: inserted, created: true };
    }
    const [existing] = await tx
      .select()
      .from(orders)
      .where(or(eq(orders.checkoutToken, checkout.token), eq(orders.paymentReference, payment.reference)))
      .limit(1);
    return { order: existing, created: false };
  });
}

/** An order by the display id a shopper typed, or null. */
export async function findOrderByDisplayId(db: Database, input: string): Promise<Order | null> {
  const orderId = normalizeOrderId(input);
  if (!/^[A-Z0-9]{6,20}$/.test(orderId)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  return order ?? null;
}
