import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { promoRedemptions } from "~/db/schema";

/** Shown before payment when this email has already had its first-purchase discount. */
export const PROMO_ALREADY_USED_MESSAGE = "LOVERUB10 is for your first purchase, and this email address has already used it.";

/** The transaction handle recordPaidCheckout passes in (or the database itself). */
type Executor = Pick<Database, "select" | "insert">;

function normalize(code: string, email: string) {
  return { code: code.trim().toUpperCase(), email: email.trim().toLowerCase() };
}

/** Whether this customer email has already paid an order with this code. */
export async function promoAlreadyRedeemed(db: Executor, code: string, email: string): Promise<boolean> {
  const key = normalize(code, email);
  const rows = await db
    .select({ orderId: promoRedemptions.orderId })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.code, key.code), eq(promoRedemptions.email, key.email)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Records the use of a code by an order, once per code and email (a unique index). Answers false
 * when the email had already used it: the order is paid by then, so the caller keeps it and logs.
 */
export async function redeemPromo(db: Executor, input: { code: string; email: string; orderId: string }): Promise<boolean> {
  const key = normalize(input.code, input.email);
  const inserted = await db
    .insert(promoRedemptions)
    .values({ ...key, orderId: input.orderId })
    .onConflictDoNothing()
    .returning({ orderId: promoRedemptions.orderId });
  return inserted.length > 0;
}
