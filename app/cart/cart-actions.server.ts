import { z } from "zod";
import { getProductByKey } from "~/catalog/queries.server";
import type { Database } from "~/db/database.server";
import { addLine, CartFullError, type CartNotice, removeLine, sanitizeCart, setLineQuantity, type Cart } from "./cart";

/** Every change a shopper can make to the cart, as posted by the cart forms. */
const cartChange = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), productKey: z.string().min(1).max(120), quantity: z.coerce.number().catch(1) }),
  z.object({ intent: z.literal("remove"), position: z.coerce.number().int().min(0) }),
  z.object({ intent: z.literal("quantity"), position: z.coerce.number().int().min(0), quantity: z.coerce.number().catch(1) }),
  z.object({ intent: z.literal("clear") }),
  z.object({ intent: z.literal("restore"), lines: z.string().max(20_000) }),
]);

export type CartChangeResult = { ok: true; cart: Cart; added?: string } | { ok: false; cart: Cart; notice: CartNotice };

/**
 * Applies one posted change. Only references and quantities are taken from
 * the form; an added product must exist in the catalog.
 */
export async function applyCartChange(db: Database, cart: Cart, form: FormData): Promise<CartChangeResult> {
  const parsed = cartChange.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, cart, notice: "invalid" };
  const change = parsed.data;
  try {
    switch (change.intent) {
      case "add": {
        const product = await getProductByKey(db, change.productKey);
        if (!product) return { ok: false, cart, notice: "unavailable" };
        return { ok: true, cart: addLine(cart, product.key, change.quantity), added: product.title };
      }
      case "remove":
        return { ok: true, cart: removeLine(cart, change.position) };
      case "quantity":
        return { ok: true, cart: setLineQuantity(cart, change.position, change.quantity) };
      case "clear":
        return { ok: true, cart: [] };
      case "restore":
        return { ok: true, cart: cart.length > 0 ? cart : sanitizeCart(safeJson(change.lines)) };
    }
  } catch (error) {
    if (error instanceof CartFullError) return { ok: false, cart, notice: "full" };
    throw error;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
