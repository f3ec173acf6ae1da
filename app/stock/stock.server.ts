import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { MADE_TO_ORDER_BRAND, MADE_TO_ORDER_LEAD_TIME } from "~/catalog/lead-time";
import type { Database } from "~/db/database.server";
import { products, productStock, stockHolds, stockMovements, type OrderItem } from "~/db/schema";
import type { StockLevel } from "./availability";

/**
 * Stock (issue 49): what the warehouse holds, and every unit's way out and back.
 *
 * - **Levels**: `product_stock` per product: tracked (`on_hand`, of which `reserved` are held), or made to
 *   order (a lead time, no count). Pages read `available` = on hand less reserved.
 * - **Holds** (stock-holds.server.ts): when a checkout's payment starts, its tracked lines are held for HOLD_MINUTES by one
 *   conditional update (`reserved + q` only while `on_hand - reserved >= q`); a payment that cannot be
 *   held is not started. The `stock.release` sweep gives back holds that expired; a checkout whose every
 *   payment was declined or abandoned gives its holds back at once.
 * - **Allocation**: the transaction that records the order turns the checkout's holds into the sale
 *   (`on_hand - q`, `reserved - q`), or, the hold gone, takes what is still available; either is one
 *   conditional update that can never go below zero. Nothing left: StockGone, no order, and the caller
 *   refunds the payment at once.
 * - **Movements**: every change of `on_hand` is a `stock_movements` row (who, why, how many, once per cause).
 */

type Executor = Pick<Database, "select" | "insert" | "update">;

/** How long a checkout's payment holds its units: long enough to pay, short enough that an abandoned one frees them soon. */
export const HOLD_MINUTES = 30;

/** What every sale, cancellation and return is done by, when no person did it. */
export const STORE_ACTOR = "store (automatic)";

export const STOCK_GONE_MESSAGE =
  "Someone bought the last one while you were paying, so we could not take your order. Your payment is being refunded in full; we have emailed you about it.";

export interface Shortage {
  productKey: string;
  title: string;
  available: number;
  wanted: number;
}

/** The last units went to another order meanwhile: nothing was recorded. */
export class StockGone extends Error {
  constructor(readonly shortages: Shortage[]) {
    super(
      `Not enough stock: ${shortages.map((shortage) => `${shortage.productKey} (${shortage.available} of ${shortage.wanted})`).join(", ")}`,
    );
    this.name = "StockGone";
  }
}

/**
 * Gives every product without a stock row one: made to order with its lead time for the brand that builds
 * to order, tracked with `defaultOnHand` units otherwise (STOCK_DEFAULT_ON_HAND). Rows already there are
 * never touched, so a catalogue reload keeps the counts. Says how many it added.
 */
export async function seedStock(db: Database, defaultOnHand: number): Promise<number> {
  const added = await db
    .insert(productStock)
    .select(
      db
        .select({
          productKey: products.key,
          policy: sql<
            "tracked" | "made-to-order"
          >`case when ${products.brand} = ${MADE_TO_ORDER_BRAND} then 'made-to-order' else 'tracked' end`.as("policy"),
          onHand: sql<number>`case when ${products.brand} = ${MADE_TO_ORDER_BRAND} then 0 else ${defaultOnHand}::int end`.as("on_hand"),
          reserved: sql<number>`0`.as("reserved"),
          leadTime: sql<
            string | null
          >`case when ${products.brand} = ${MADE_TO_ORDER_BRAND} then ${MADE_TO_ORDER_LEAD_TIME} else null end`.as("lead_time"),
          updatedAt: sql<Date>`now()`.as("updated_at"),
        })
        .from(products)
        .leftJoin(productStock, eq(productStock.productKey, products.key))
        .where(isNull(productStock.productKey)),
    )
    .onConflictDoNothing()
    .returning({ productKey: productStock.productKey });
  return added.length;
}

/** The stock of each product asked (a product without a row is not counted). */
export async function stockLevels(db: Pick<Database, "select">, keys: readonly string[]): Promise<Map<string, StockLevel>> {
  const unique = [...new Set(keys)];
  const rows = unique.length === 0 ? [] : await levelsQuery(db).execute({ keys: unique });
  const levels = new Map<string, StockLevel>(unique.map((key) => [key, { policy: "untracked" }]));
  for (const row of rows) levels.set(row.productKey, levelOf(row));
  return levels;
}

/**
 * Every page asks for the levels of the 40 to 100 products it shows: the query is built once per database (one
 * array parameter, `= any($1)`), not again for each page with a parameter per product (5% of a product page's CPU).
 */
function levelsQuery(db: Pick<Database, "select">) {
  let query = levelsQueries.get(db);
  if (!query) levelsQueries.set(db, (query = prepareLevelsQuery(db)));
  return query;
}

const prepareLevelsQuery = (db: Pick<Database, "select">) =>
  db
    .select()
    .from(productStock)
    .where(sql`${productStock.productKey} = any(${sql.placeholder("keys")})`)
    .prepare("stock_levels");

const levelsQueries = new WeakMap<Pick<Database, "select">, ReturnType<typeof prepareLevelsQuery>>();

export async function stockLevel(db: Pick<Database, "select">, key: string): Promise<StockLevel> {
  return (await stockLevels(db, [key])).get(key) ?? { policy: "untracked" };
}

function levelOf(row: typeof productStock.$inferSelect): StockLevel {
  return row.policy === "made-to-order"
    ? { policy: "made-to-order", leadTime: row.leadTime ?? MADE_TO_ORDER_LEAD_TIME }
    : { policy: "tracked", available: Math.max(0, row.onHand - row.reserved) };
}

/** A checkout's lines as units per product, in key order (the order every transaction locks them in). */
export function unitsPerProduct(
  items: readonly Pick<OrderItem, "productKey" | "quantity" | "title">[],
): { productKey: string; quantity: number; title: string }[] {
  const units = new Map<string, { productKey: string; quantity: number; title: string }>();
  for (const item of items) {
    const seen = units.get(item.productKey);
    units.set(item.productKey, { productKey: item.productKey, title: item.title, quantity: (seen?.quantity ?? 0) + item.quantity });
  }
  return [...units.values()].sort((a, b) => (a.productKey < b.productKey ? -1 : 1));
}

/** Which lines want more than is in stock, as one sentence: "Only 1 of “X” are left (the order has 2)." */
export function shortageText(shortages: readonly Shortage[]): string {
  const lines = shortages.map((shortage) =>
    shortage.available === 0
      ? `“${shortage.title}” is out of stock`
      : `only ${shortage.available} of “${shortage.title}” are left (the order has ${shortage.wanted})`,
  );
  const text = lines.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** What the shopper reads when a line of the checkout wants more than is in stock. */
export function shortageMessage(shortages: readonly Shortage[]): string {
  return `${shortageText(shortages)} Please change your order: nothing was charged.`;
}

/**
 * The order's stock, inside the transaction that records it: each tracked line takes its checkout's hold
 * (expired but not yet released counts too), or, without one, what is still available. StockGone when a
 * line cannot be had: the transaction records nothing.
 */
export async function allocateOrderStock(
  tx: Executor,
  checkout: { token: string; items: readonly OrderItem[] },
  orderId: string,
): Promise<void> {
  const shortages: Shortage[] = [];
  for (const line of unitsPerProduct(checkout.items)) {
    const [stock] = await tx.select().from(productStock).where(eq(productStock.productKey, line.productKey)).for("update");
    if (stock?.policy !== "tracked") continue;
    const [hold] = await tx
      .update(stockHolds)
      .set({ status: "allocated" })
      .where(and(eq(stockHolds.checkoutToken, checkout.token), eq(stockHolds.productKey, line.productKey), eq(stockHolds.status, "held")))
      .returning({ quantity: stockHolds.quantity });
    const fromHold = Math.min(hold?.quantity ?? 0, line.quantity);
    const rest = line.quantity - fromHold;
    const [taken] = await tx
      .update(productStock)
      .set({
        onHand: sql`${productStock.onHand} - ${line.quantity}`,
        reserved: sql`${productStock.reserved} - ${hold?.quantity ?? 0}`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(productStock.productKey, line.productKey),
          sql`${productStock.reserved} >= ${hold?.quantity ?? 0}`,
          sql`${productStock.onHand} - ${productStock.reserved} >= ${rest}`,
        ),
      )
      .returning({ onHand: productStock.onHand });
    if (!taken) {
      shortages.push({
        productKey: line.productKey,
        title: line.title,
        available: Math.max(0, stock.onHand - stock.reserved),
        wanted: line.quantity,
      });
      continue;
    }
    await recordMovement(tx, {
      productKey: line.productKey,
      delta: -line.quantity,
      onHandAfter: taken.onHand,
      reason: "sale",
      actor: STORE_ACTOR,
      orderId,
      source: `order:${orderId}`,
    });
  }
  if (shortages.length > 0) throw new StockGone(shortages);
}

export interface StockMove {
  productKey: string;
  quantity: number;
}

/**
 * Units back on the shelf (a cancelled order, a received return), once per `source`. Says which products
 * were out of stock and are available again, for "Notify me".
 */
export async function restock(
  tx: Executor,
  input: { lines: readonly StockMove[]; reason: string; actor: string; orderId: string | null; source: string; note?: string },
): Promise<string[]> {
  const backInStock: string[] = [];
  for (const line of mergedMoves(input.lines)) {
    const [stock] = await tx.select().from(productStock).where(eq(productStock.productKey, line.productKey)).for("update");
    if (!stock || stock.policy !== "tracked" || line.quantity <= 0) continue;
    const movement = await recordMovement(tx, {
      productKey: line.productKey,
      delta: line.quantity,
      onHandAfter: stock.onHand + line.quantity,
      reason: input.reason,
      actor: input.actor,
      orderId: input.orderId,
      source: input.source,
      note: input.note ?? null,
    });
    if (!movement) continue;
    await tx
      .update(productStock)
      .set({ onHand: sql`${productStock.onHand} + ${line.quantity}`, updatedAt: sql`now()` })
      .where(eq(productStock.productKey, line.productKey));
    if (stock.onHand - stock.reserved <= 0) backInStock.push(line.productKey);
  }
  return backInStock;
}

/**
 * Units taken off the shelf again (a cancelled order set back to a live status), once per `source`: all or
 * none, and StockGone when they are not there any more.
 */
export async function takeStock(
  tx: Executor,
  input: { lines: readonly (StockMove & { title: string })[]; reason: string; actor: string; orderId: string; source: string },
): Promise<void> {
  const shortages: Shortage[] = [];
  for (const line of unitsPerProduct(input.lines)) {
    const [stock] = await tx.select().from(productStock).where(eq(productStock.productKey, line.productKey)).for("update");
    if (stock?.policy !== "tracked") continue;
    const [taken] = await tx
      .update(productStock)
      .set({ onHand: sql`${productStock.onHand} - ${line.quantity}`, updatedAt: sql`now()` })
      .where(
        and(
          eq(productStock.productKey, line.productKey),
          eq(productStock.policy, "tracked"),
          sql`${productStock.onHand} - ${productStock.reserved} >= ${line.quantity}`,
        ),
      )
      .returning({ onHand: productStock.onHand });
    if (taken) {
      await recordMovement(tx, {
        productKey: line.productKey,
        delta: -line.quantity,
        onHandAfter: taken.onHand,
        reason: input.reason,
        actor: input.actor,
        orderId: input.orderId,
        source: input.source,
      });
      continue;
    }
    shortages.push({
      productKey: line.productKey,
      title: line.title,
      available: Math.max(0, stock.onHand - stock.reserved),
      wanted: line.quantity,
    });
  }
  if (shortages.length > 0) throw new StockGone(shortages);
}

function mergedMoves(lines: readonly StockMove[]): StockMove[] {
  return unitsPerProduct(lines.map((line) => ({ ...line, title: "" }))).map(({ productKey, quantity }) => ({ productKey, quantity }));
}

/** Records one movement, once per `source` and product: false when that cause already moved this product. */
export async function recordMovement(tx: Pick<Database, "insert">, movement: typeof stockMovements.$inferInsert): Promise<boolean> {
  const inserted = await tx.insert(stockMovements).values(movement).onConflictDoNothing().returning({ id: stockMovements.id });
  return inserted.length > 0;
}

export type SetOnHandResult =
  | { ok: true; backInStock: boolean; changed: boolean }
  | { ok: false; reason: "not-found" | "made-to-order" | "held" | "stale"; message: string };

/**
 * Staff's count of a tracked product: on hand becomes `onHand`, never below what checkouts paying now
 * hold, with a movement of the difference and the reason given. With `expectedOnHand` (the count the staff
 * member's page showed), a count that changed since is refused, never overwritten blindly.
 */
export async function setOnHand(
  db: Database,
  input: { productKey: string; onHand: number; reason: string; actor: string; expectedOnHand?: number },
): Promise<SetOnHandResult> {
  return db.transaction(async (tx) => {
    const [stock] = await tx.select().from(productStock).where(eq(productStock.productKey, input.productKey)).for("update");
    if (!stock) return { ok: false, reason: "not-found", message: `There is no product ${input.productKey}.` };
    if (stock.policy !== "tracked") {
      return { ok: false, reason: "made-to-order", message: `${input.productKey} is made to order: it has no count.` };
    }
    if (input.expectedOnHand !== undefined && stock.onHand !== input.expectedOnHand) {
      return {
        ok: false,
        reason: "stale",
        message: `The count of ${input.productKey} changed since this page was shown: it is ${stock.onHand} now, not ${input.expectedOnHand}. Nothing was changed: check the count and set it again.`,
      };
    }
    if (input.onHand < stock.reserved) {
      return {
        ok: false,
        reason: "held",
        message: `${stock.reserved} of ${input.productKey} are held by checkouts paying now: set at least ${stock.reserved}, or try again in ${HOLD_MINUTES} minutes.`,
      };
    }
    const delta = input.onHand - stock.onHand;
    if (delta === 0) return { ok: true, backInStock: false, changed: false };
    await tx
      .update(productStock)
      .set({ onHand: input.onHand, updatedAt: sql`now()` })
      .where(eq(productStock.productKey, input.productKey));
    await recordMovement(tx, { productKey: input.productKey, delta, onHandAfter: input.onHand, reason: input.reason, actor: input.actor });
    return { ok: true, backInStock: stock.onHand - stock.reserved <= 0 && input.onHand - stock.reserved > 0, changed: true };
  });
}

export async function movementsOf(db: Pick<Database, "select">, productKey: string, limit = 50) {
  return db
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.productKey, productKey))
    .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
    .limit(limit);
}
