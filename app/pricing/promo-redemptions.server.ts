import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { checkouts, paymentAttempts, promoRedemptions, promoReservations } from "~/db/schema";

export { PROMO_ALREADY_USED_MESSAGE } from "./promo-messages";

/** The transaction handle recordPaidCheckout passes in (or the database itself). */
type Executor = Pick<Database, "select" | "insert">;

/** One customer, however the address is typed: lower case, trimmed, and `name+tag@` counted as `name@`. */
export function normalizeCustomerEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0) return trimmed;
  const local = trimmed.slice(0, at).split("+")[0];
  return `${local || trimmed.slice(0, at)}${trimmed.slice(at)}`;
}

function normalize(code: string, email: string) {
  return { code: code.trim().toUpperCase(), email: normalizeCustomerEmail(email) };
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

/** Records the use of a code by an order, once per code and email (a unique index). Answers false when the email had already used it. */
export async function redeemPromo(db: Executor, input: { code: string; email: string; orderId: string }): Promise<boolean> {
  const key = normalize(input.code, input.email);
  const inserted = await db
    .insert(promoRedemptions)
    .values({ ...key, orderId: input.orderId })
    .onConflictDoNothing()
    .returning({ orderId: promoRedemptions.orderId });
  return inserted.length > 0;
}

/**
 * Holds the first-purchase code for this checkout's customer before any payment starts. One row per
 * code and normalised email (a unique index), so of two checkouts paying at once, even on two
 * processes, only one gets it; the same checkout may ask again (a retried payment). False when the
 * email already paid with it or another checkout holds it.
 */
export async function reservePromo(db: Database, input: { code: string; email: string; checkoutToken: string }): Promise<boolean> {
  const key = normalize(input.code, input.email);
  if (await promoAlreadyRedeemed(db, key.code, key.email)) return false;
  const held = await db
    .insert(promoReservations)
    .values({ ...key, checkoutToken: input.checkoutToken })
    .onConflictDoUpdate({
      target: [promoReservations.code, promoReservations.email],
      set: { createdAt: sql`now()` },
      setWhere: sql`${promoReservations.checkoutToken} = excluded.checkout_token`,
    })
    .returning({ checkoutToken: promoReservations.checkoutToken });
  return held.length > 0;
}

/** Whether another checkout of this customer holds the code now (it was given back by this one, then taken). */
export async function promoHeldByAnotherCheckout(
  db: Executor,
  input: { code: string; email: string; checkoutToken: string },
): Promise<boolean> {
  const key = normalize(input.code, input.email);
  const rows = await db
    .select({ checkoutToken: promoReservations.checkoutToken })
    .from(promoReservations)
    .where(and(eq(promoReservations.code, key.code), eq(promoReservations.email, key.email)))
    .limit(1);
  return rows.length > 0 && rows[0].checkoutToken !== input.checkoutToken;
}

/**
 * Gives the code back once this checkout can no longer pay with it: not paid, and none of its
 * payments still started or approved (called after a decline, a cancel or an abandoned attempt).
 */
export async function releasePromo(db: Database, checkoutToken: string): Promise<void> {
  await db
    .delete(promoReservations)
    .where(
      and(
        eq(promoReservations.checkoutToken, checkoutToken),
        sql`not exists (select 1 from ${checkouts} where ${checkouts.token} = ${checkoutToken} and ${checkouts.status} = 'paid')`,
        sql`not exists (select 1 from ${paymentAttempts} where ${paymentAttempts.checkoutToken} = ${checkoutToken} and ${paymentAttempts.status} in ('started', 'approved'))`,
      ),
    );
}
