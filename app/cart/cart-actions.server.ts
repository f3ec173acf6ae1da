import { z } from "zod";
import { getProductByKey } from "~/catalog/queries.server";
import type { Database } from "~/db/database.server";
import { checkCartQuantities } from "~/stock/storefront-stock.server";
import { parseForm, type FormFields } from "~/utils/forms.server";
import {
  addLine,
  CartFullError,
  type CartNotice,
  clampQuantity,
  MAX_LINE_QUANTITY,
  removeLine,
  sanitizeCart,
  setLineQuantity,
  type Cart,
} from "./cart";

/** Every change a shopper can make to the cart, as posted by the cart forms, and BUY NOW (which skips the cart). */
const cartForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("buy"), productKey: z.string().max(120).catch(""), quantity: z.string().catch("1") }),
  z.object({ intent: z.literal("add"), productKey: z.string().min(1).max(120), quantity: z.coerce.number().catch(1) }),
  z.object({ intent: z.literal("remove"), position: z.coerce.number().int().min(0) }),
  z.object({ intent: z.literal("quantity"), position: z.coerce.number().int().min(0), quantity: z.coerce.number().catch(1) }),
  z.object({ intent: z.literal("clear") }),
  z.object({ intent: z.literal("restore"), lines: z.string().max(20_000) }),
]);

export type CartForm = z.output<typeof cartForm>;
export type CartChange = Exclude<CartForm, { intent: "buy" }>;
export type CartChangeResult =
  | { ok: true; cart: Cart; added?: string }
  /** `message`: the refusal in words of its own (the stock left of the product named by `productKey`). */
  | { ok: false; cart: Cart; notice: CartNotice; message?: string; productKey?: string };

/** The posted cart form; null when a known intent comes with fields that make no sense. An unknown intent throws a 400. */
export function parseCartForm(fields: FormFields): CartForm | null {
  const parsed = parseForm(cartForm, fields);
  return parsed.ok ? parsed.data : null;
}

/**
 * Applies one posted change. Only references and quantities are taken from
 * the form; an added product must exist in the catalog. A change that would
 * take more of a product than is in stock is refused and changes nothing
 * (made-to-order and uncounted products have no limit; lowering a quantity is
 * never refused).
 */
export async function applyCartChange(db: Database, cart: Cart, change: CartChange | null): Promise<CartChangeResult> {
  if (!change) return { ok: false, cart, notice: "invalid" };
  try {
    switch (change.intent) {
      case "add": {
        const product = await getProductByKey(db, change.productKey);
        if (!product) return { ok: false, cart, notice: "unavailable" };
        const added = addLine(cart, product.key, change.quantity);
        const inCart = quantityOf(cart, product.key);
        const stock = await checkCartQuantities(db, [
          { productKey: product.key, title: product.title, quantity: quantityOf(added, product.key), inCart },
        ]);
        if (!stock.ok) return { ok: false, cart, notice: "stock", message: stock.message, productKey: product.key };
        if (change.quantity > MAX_LINE_QUANTITY) return { ok: false, cart: added, notice: "quantityCapped" };
        return { ok: true, cart: added, added: product.title };
      }
      case "remove":
        return { ok: true, cart: removeLine(cart, change.position) };
      case "quantity": {
        const changed = setLineQuantity(cart, change.position, change.quantity);
        const line = cart[change.position];
        if (line && quantityOf(changed, line.productKey) > quantityOf(cart, line.productKey)) {
          const stock = await checkCartQuantities(db, [
            {
              productKey: line.productKey,
              quantity: quantityOf(changed, line.productKey),
              inCart: quantityOf(cart, line.productKey) - line.quantity,
            },
          ]);
          if (!stock.ok) return { ok: false, cart, notice: "stock", message: stock.message, productKey: line.productKey };
        }
        // The line is set to the cap and the shopper is told why it is not what they typed.
        if (change.quantity > MAX_LINE_QUANTITY) return { ok: false, cart: changed, notice: "quantityCapped" };
        return { ok: true, cart: changed };
      }
      case "clear":
        return { ok: true, cart: [] };
      case "restore":
        return { ok: true, cart: cart.length > 0 ? cart : await knownLines(db, sanitizeCart(safeJson(change.lines))) };
    }
  } catch (error) {
    if (error instanceof CartFullError) return { ok: false, cart, notice: "full" };
    throw error;
  }
}

/** How many of a product the cart holds, over all its lines. */
function quantityOf(cart: Cart, productKey: string): number {
  return cart.reduce((sum, line) => (line.productKey === productKey ? sum + line.quantity : sum), 0);
}

/** BUY NOW's quantity of a product, checked against its stock before the single-product checkout opens. */
export function checkBuyNow(db: Database, buy: { productKey: string; quantity: number }) {
  return checkCartQuantities(db, [{ productKey: buy.productKey, quantity: clampQuantity(buy.quantity) }]);
}

/** Restored lines pass the same check as an added product: only products the catalog has. */
async function knownLines(db: Database, lines: Cart): Promise<Cart> {
  const known = await Promise.all(lines.map(async (line) => ((await getProductByKey(db, line.productKey)) ? line : null)));
  return known.filter((line) => line !== null);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
