import { and, eq, isNull, ne, or } from "drizzle-orm";
import { leaseEnded, leaseUntil } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { checkouts } from "~/db/schema";

/**
 * Who may take a checkout's money. PayPal's capture and Affirm's authorization are steps of ours:
 * before one runs, its attempt claims the checkout (a lease on the row, so a process that dies
 * mid-call frees it), and only while the checkout is unpaid. Of two payments of one checkout, the
 * second then finds it paid, or claimed, and takes nothing (ADR 021).
 */
export type CollectionClaim =
  /** This attempt may take the money; release the claim when done. */
  | "claimed"
  /** Another payment paid the checkout: take nothing. */
  | "paid"
  /** Another attempt is taking the money right now: ask again later. */
  | "busy";

/** Longer than the slowest provider call with its retries (10 s time-outs, a token renewal, Stripe's two retries). */
const LEASE_SECONDS = 120;

export async function claimCollection(db: Database, checkoutToken: string, attemptId: string): Promise<CollectionClaim> {
  const [claimed] = await db
    .update(checkouts)
    .set({ collectingAttemptId: attemptId, collectingUntil: leaseUntil(LEASE_SECONDS) })
    .where(
      and(
        eq(checkouts.token, checkoutToken),
        ne(checkouts.status, "paid"),
        or(isNull(checkouts.collectingAttemptId), eq(checkouts.collectingAttemptId, attemptId), leaseEnded(checkouts.collectingUntil)),
      ),
    )
    .returning({ token: checkouts.token });
  if (claimed) return "claimed";
  const [checkout] = await db.select({ status: checkouts.status }).from(checkouts).where(eq(checkouts.token, checkoutToken));
  return checkout?.status === "paid" ? "paid" : "busy";
}

export async function releaseCollection(db: Database, checkoutToken: string, attemptId: string): Promise<void> {
  await db
    .update(checkouts)
    .set({ collectingAttemptId: null, collectingUntil: null })
    .where(and(eq(checkouts.token, checkoutToken), eq(checkouts.collectingAttemptId, attemptId)));
}
