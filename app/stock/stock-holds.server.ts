import { and, eq, min, sql } from "drizzle-orm";
import { dueRowsLocked, leaseUntil } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { checkouts, paymentAttempts, productStock, stockHolds, type OrderItem } from "~/db/schema";
import type { JobSender } from "~/jobs/queue.server";
import type { ServiceDeps } from "~/store-runtime";
import { logError } from "~/observability/logger.server";
import { HOLD_MINUTES, stockLevels, unitsPerProduct, type Shortage } from "./stock.server";

/**
 * Stock held while a checkout's payment is under way (see stock.server.ts for the whole): taken by one
 * conditional update when the payment starts, extended by a later start, given back when the hold expires
 * (the `stock.release` sweep) or every payment of the checkout failed.
 */

type Executor = Pick<Database, "select" | "insert" | "update">;
export type HoldResult = { ok: true } | { ok: false; shortages: Shortage[] };

class HoldRefused extends Error {
  constructor(readonly shortages: Shortage[]) {
    super("hold refused");
  }
}

/**
 * Holds a checkout's tracked units while its payment is under way: extends a hold it has, or takes new units
 * only while enough are available. All lines or none: a line short of stock holds nothing of the others.
 */
export async function holdCheckoutStock(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  checkout: { token: string; items: readonly OrderItem[] },
): Promise<HoldResult> {
  const wanted = unitsPerProduct(checkout.items);
  try {
    await db.transaction(async (tx) => {
      for (const line of wanted) {
        const extended = await tx
          .update(stockHolds)
          .set({ expiresAt: leaseUntil(HOLD_MINUTES * 60) })
          .where(
            and(eq(stockHolds.checkoutToken, checkout.token), eq(stockHolds.productKey, line.productKey), eq(stockHolds.status, "held")),
          )
          .returning({ id: stockHolds.id });
        if (extended.length > 0) continue;
        const [stock] = await tx.select().from(productStock).where(eq(productStock.productKey, line.productKey));
        if (stock?.policy !== "tracked") continue;
        const held = await tx
          .update(productStock)
          .set({ reserved: sql`${productStock.reserved} + ${line.quantity}`, updatedAt: sql`now()` })
          .where(
            and(
              eq(productStock.productKey, line.productKey),
              eq(productStock.policy, "tracked"),
              sql`${productStock.onHand} - ${productStock.reserved} >= ${line.quantity}`,
            ),
          )
          .returning({ productKey: productStock.productKey });
        if (held.length === 0) throw new HoldRefused(await shortagesOf(tx, wanted));
        await tx.insert(stockHolds).values({
          checkoutToken: checkout.token,
          productKey: line.productKey,
          quantity: line.quantity,
          expiresAt: leaseUntil(HOLD_MINUTES * 60),
        });
      }
    });
  } catch (error) {
    if (error instanceof HoldRefused) return { ok: false, shortages: error.shortages };
    throw error;
  }
  await queueHoldRelease({ jobs });
  return { ok: true };
}

/** A recorded checkout's lines that stock no longer covers, the units its own payment holds counted as its own. */
export async function checkoutShortages(
  db: Pick<Database, "select">,
  checkout: { token: string; items: readonly Pick<OrderItem, "productKey" | "title" | "quantity">[] },
): Promise<Shortage[]> {
  if (checkout.items.length === 0) return [];
  const holds = await db
    .select({ productKey: stockHolds.productKey, quantity: stockHolds.quantity })
    .from(stockHolds)
    .where(and(eq(stockHolds.checkoutToken, checkout.token), eq(stockHolds.status, "held")));
  const own = new Map<string, number>();
  for (const hold of holds) own.set(hold.productKey, (own.get(hold.productKey) ?? 0) + hold.quantity);
  return shortagesOf(db, unitsPerProduct(checkout.items), own);
}

/** The lines a checkout wants more of than is available now (its own holds counted as its own). */
async function shortagesOf(
  db: Pick<Database, "select">,
  wanted: { productKey: string; quantity: number; title: string }[],
  ownHolds: Map<string, number> = new Map(),
): Promise<Shortage[]> {
  const levels = await stockLevels(
    db,
    wanted.map((line) => line.productKey),
  );
  return wanted.flatMap((line) => {
    const level = levels.get(line.productKey);
    if (!level || level.policy !== "tracked") return [];
    const available = level.available + (ownHolds.get(line.productKey) ?? 0);
    return available >= line.quantity ? [] : [{ productKey: line.productKey, title: line.title, available, wanted: line.quantity }];
  });
}

/**
 * Gives a checkout's holds back once it can no longer pay: not paid, and none of its payments still started
 * or approved (after a decline, a cancel or an abandoned payment).
 */
export async function releaseCheckoutHolds(db: Database, checkoutToken: string): Promise<void> {
  await db.transaction(async (tx) => {
    const released = await tx
      .update(stockHolds)
      .set({ status: "released" })
      .where(
        and(
          eq(stockHolds.checkoutToken, checkoutToken),
          eq(stockHolds.status, "held"),
          sql`not exists (select 1 from ${checkouts} where ${checkouts.token} = ${checkoutToken} and ${checkouts.status} = 'paid')`,
          sql`not exists (select 1 from ${paymentAttempts} where ${paymentAttempts.checkoutToken} = ${checkoutToken} and ${paymentAttempts.status} in ('started', 'approved'))`,
        ),
      )
      .returning({ productKey: stockHolds.productKey, quantity: stockHolds.quantity });
    await giveBack(tx, released);
  });
}

async function giveBack(tx: Executor, holds: { productKey: string; quantity: number }[]): Promise<void> {
  for (const hold of holds) {
    await tx
      .update(productStock)
      .set({ reserved: sql`greatest(0, ${productStock.reserved} - ${hold.quantity})`, updatedAt: sql`now()` })
      .where(eq(productStock.productKey, hold.productKey));
  }
}

/** The `stock.release` job: gives back every hold that expired, a batch at a time, then queues itself for the next to expire. */
export async function sweepExpiredHolds(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  { batch = 100 }: { batch?: number } = {},
): Promise<number> {
  let released = 0;
  for (;;) {
    const due = dueRowsLocked(db, stockHolds.id, { dueAt: stockHolds.expiresAt, where: eq(stockHolds.status, "held"), limit: batch });
    const holds = await db.transaction(async (tx) => {
      const rows = await tx
        .update(stockHolds)
        .set({ status: "released" })
        .where(and(due, eq(stockHolds.status, "held")))
        .returning({ productKey: stockHolds.productKey, quantity: stockHolds.quantity });
      await giveBack(tx, rows);
      return rows;
    });
    released += holds.length;
    if (holds.length < batch) break;
  }
  await queueHoldRelease({ db, jobs });
  return released;
}

/** Queues the release sweep for the next hold to expire (or now, without a database to ask). */
async function queueHoldRelease({ db, jobs }: { db?: Database; jobs: JobSender }): Promise<void> {
  try {
    if (!db) {
      await jobs.send("stock.release", {}, { startAfter: new Date(Date.now() + HOLD_MINUTES * 60_000) });
      return;
    }
    const [{ earliest }] = await db
      .select({ earliest: min(stockHolds.expiresAt) })
      .from(stockHolds)
      .where(eq(stockHolds.status, "held"));
    if (earliest) await jobs.send("stock.release", {}, { startAfter: earliest });
  } catch (error) {
    logError("The stock release sweep could not be queued (the next start queues it)", error);
  }
}

/** Live holds and the units they keep, for the metrics. */
export async function heldStock(db: Pick<Database, "select">): Promise<{ holds: number; units: number }> {
  const [row] = await db
    .select({ holds: sql<number>`count(*)::int`, units: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(eq(stockHolds.status, "held"));
  return { holds: Number(row?.holds ?? 0), units: Number(row?.units ?? 0) };
}

/** What a process does at start: one release sweep now. Says how many holds are live. */
export async function scheduleHoldRelease({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">): Promise<number> {
  const [{ live }] = await db
    .select({ live: sql<number>`count(*)::int` })
    .from(stockHolds)
    .where(eq(stockHolds.status, "held"));
  await jobs.send("stock.release", {});
  return Number(live);
}
