import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products, stockHolds, type OrderItem } from "~/db/schema";
import type { StockLevel } from "./availability";
import {
  cartShortageMessage,
  productStockView,
  quantityRefusalMessage,
  quantityRefusals,
  withCardStock,
  type CardStock,
  type ProductStockView,
  type WantedQuantity,
} from "./shopper-stock";
import { shortageMessage, shortageText, stockLevels, type Shortage } from "./stock.server";

/**
 * The storefront's side of stock (issue 49): what pages say of it, read once per request for the keys a
 * page shows (outside the catalogue memos), and the one rule of the cart, BUY NOW and the checkouts: no
 * quantity beyond what is available is taken. The words and rules are pure (shopper-stock.ts).
 */

export type StockLevels = ReadonlyMap<string, StockLevel>;

/** One query for every product a page shows. */
export function readStock(db: Pick<Database, "select">, keys: Iterable<string>): Promise<StockLevels> {
  return stockLevels(db, [...keys]);
}

/** The product page's availability line, JSON-LD value and what can be bought. */
export function productStock(levels: StockLevels, productKey: string, options: { freeShipping?: boolean } = {}): ProductStockView {
  return productStockView(levels.get(productKey) ?? { policy: "untracked" }, options);
}

/** Cards with their availability line (only where it differs from plain stock) and whether they can be added. */
export function stockedCards<T extends { key: string; brand: string }>(cards: readonly T[], levels: StockLevels): (T & CardStock)[] {
  return withCardStock(cards, levels);
}

/** The refusal of these quantities from stock already read, or null when all can be had. */
export function quantityMessage(levels: StockLevels, wanted: readonly WantedQuantity[]): string | null {
  const refusals = quantityRefusals(wanted, levels);
  return refusals.length > 0 ? quantityRefusalMessage(refusals) : null;
}

/** The most of a product one can buy now, within `limit` (at least 1, so a quantity field always has a value). */
export function buyableWithin(levels: StockLevels, productKey: string, limit: number): number {
  const level = levels.get(productKey);
  return level?.policy === "tracked" ? Math.max(1, Math.min(limit, level.available)) : limit;
}

export type StockCheck = { ok: true } | { ok: false; message: string };

/**
 * Whether these quantities can be had now (several lines of one product count together): refused with a
 * message naming each product short and how many are left. A title not given is read from the catalogue,
 * only for a product refused.
 */
export async function checkCartQuantities(
  db: Pick<Database, "select">,
  lines: readonly (Omit<WantedQuantity, "title"> & { title?: string })[],
): Promise<StockCheck> {
  if (lines.length === 0) return { ok: true };
  const merged = new Map<string, Omit<WantedQuantity, "title"> & { title?: string }>();
  for (const line of lines) {
    const seen = merged.get(line.productKey);
    merged.set(line.productKey, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  const wanted = [...merged.values()];
  const levels = await stockLevels(
    db,
    wanted.map((line) => line.productKey),
  );
  const refusals = quantityRefusals(
    wanted.map((line) => ({ ...line, title: line.title ?? line.productKey })),
    levels,
  );
  if (refusals.length === 0) return { ok: true };
  const untitled = wanted.filter((line) => line.title === undefined).map((line) => line.productKey);
  const titles = new Map<string, string>();
  if (untitled.length > 0) {
    const rows = await db.select({ key: products.key, title: products.title }).from(products).where(inArray(products.key, untitled));
    for (const row of rows) titles.set(row.key, row.title);
  }
  return {
    ok: false,
    message: quantityRefusalMessage(refusals.map((refusal) => ({ ...refusal, title: titles.get(refusal.productKey) ?? refusal.title }))),
  };
}

/**
 * The cart page's words for a change refused for stock, without script (`/cart?notice=stock&product=…`): read
 * again from the stock and the catalogue, never from the address. Null for a product not counted or unknown.
 */
export async function stockNoticeFor(
  db: Pick<Database, "select">,
  levels: StockLevels,
  productKey: string,
  inCart: number,
): Promise<string | null> {
  const level = levels.get(productKey);
  if (level?.policy !== "tracked") return null;
  const [product] = await db.select({ title: products.title }).from(products).where(eq(products.key, productKey));
  if (!product) return null;
  return quantityRefusalMessage([{ productKey, title: product.title, available: level.available, inCart }]);
}

/** What the cart page and the checkout's details step say of lines the stock no longer covers (null: all there). */
export function cartStockMessage(
  levels: StockLevels,
  lines: readonly { productKey: string; title: string; quantity: number }[],
): string | null {
  return cartShortageMessage(lines, levels);
}

/**
 * A recorded checkout's lines checked again for its payment step: the units its own payment holds count
 * as its own. Null when every line can be had; otherwise which are short, as the hold refusal says it
 * (`afterRefusal`: the shopper just chose to pay and was refused) or as a warning before paying.
 */
export async function checkoutStockMessage(
  db: Pick<Database, "select">,
  checkout: { token: string; items: readonly Pick<OrderItem, "productKey" | "title" | "quantity">[] },
  { afterRefusal = false }: { afterRefusal?: boolean } = {},
): Promise<string | null> {
  if (checkout.items.length === 0) return null;
  const keys = [...new Set(checkout.items.map((item) => item.productKey))];
  const [levels, holds] = await Promise.all([
    stockLevels(db, keys),
    db
      .select({ productKey: stockHolds.productKey, quantity: stockHolds.quantity })
      .from(stockHolds)
      .where(and(eq(stockHolds.checkoutToken, checkout.token), eq(stockHolds.status, "held"))),
  ]);
  const own = new Map<string, number>();
  for (const hold of holds) own.set(hold.productKey, (own.get(hold.productKey) ?? 0) + hold.quantity);
  const wanted = new Map<string, { title: string; quantity: number }>();
  for (const item of checkout.items) {
    const seen = wanted.get(item.productKey);
    wanted.set(item.productKey, { title: item.title, quantity: (seen?.quantity ?? 0) + item.quantity });
  }
  const shortages: Shortage[] = [];
  for (const [productKey, line] of wanted) {
    const level = levels.get(productKey);
    if (level?.policy !== "tracked") continue;
    const available = level.available + (own.get(productKey) ?? 0);
    if (available < line.quantity) shortages.push({ productKey, title: line.title, available, wanted: line.quantity });
  }
  if (shortages.length === 0) return null;
  return afterRefusal ? shortageMessage(shortages) : `${shortageText(shortages)} Please change your order before you pay.`;
}
