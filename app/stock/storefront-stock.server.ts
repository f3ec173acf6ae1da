import { eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products, type OrderItem } from "~/db/schema";
import type { StockLevel } from "./availability";
import { productStockView, quantityRefusalMessage, quantityRefusals, type ProductStockView, type WantedQuantity } from "./shopper-stock";
import { checkoutShortages } from "./stock-holds.server";
import { shortageMessage, shortageText, stockLevels } from "./stock.server";

/**
 * The storefront's side of stock (issue 49): what pages say of it, read once per request for the keys a
 * page shows (outside the catalogue memos), and the one rule of the cart, BUY NOW and the checkouts: no
 * quantity beyond what is available is taken. The words and rules are pure (shopper-stock.ts).
 */

export type StockLevels = ReadonlyMap<string, StockLevel>;

// What routes read through ~/server-api: one query for every product a page shows, cards with their line.
export { stockLevels } from "./stock.server";
export { cartShortageMessage, withCardStock } from "./shopper-stock";

/** The product page's availability line, JSON-LD value and what can be bought. */
export function productStock(levels: StockLevels, productKey: string, options: { freeShipping?: boolean } = {}): ProductStockView {
  return productStockView(levels.get(productKey) ?? { policy: "untracked" }, options);
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
  const shortages = await checkoutShortages(db, checkout);
  if (shortages.length === 0) return null;
  return afterRefusal ? shortageMessage(shortages) : `${shortageText(shortages)} Please change your order before you pay.`;
}
