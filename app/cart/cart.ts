/**
 * The cart of the spec: a list identified by position; add appends without
 * merging, remove by position, quantities floored at 1. Lines hold a product
 * reference and a quantity only: names and prices always come from the
 * catalog.
 */
export interface CartLine {
  productKey: string;
  quantity: number;
}

export type Cart = readonly CartLine[];

/** Lines a cart may hold, so the signed cookie always stays under the browsers' 4 KB limit. */
export const MAX_CART_LINES = 40;
export const MAX_LINE_QUANTITY = 999;
export const CART_FULL_MESSAGE = `Your cart is full (${MAX_CART_LINES} lines). Remove a line or check out before adding more.`;

/** Why a cart change was refused, and what the shopper is told. */
export const CART_NOTICES = {
  full: CART_FULL_MESSAGE,
  unavailable: "That product is no longer available.",
  invalid: "That change could not be made to your cart. Please try again.",
  quantityCapped: `A cart line holds at most ${MAX_LINE_QUANTITY} of a product, so the quantity was set to ${MAX_LINE_QUANTITY}.`,
  /** The general words; the cart says which product and how many are left when it knows (`?notice=stock&product=`). */
  stock: "We do not have that many in stock. Your cart was not changed.",
} as const;
export type CartNotice = keyof typeof CART_NOTICES;

export function isCartNotice(value: unknown): value is CartNotice {
  return typeof value === "string" && Object.hasOwn(CART_NOTICES, value);
}

export class CartFullError extends Error {
  constructor() {
    super(CART_FULL_MESSAGE);
    this.name = "CartFullError";
  }
}

export function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.floor(quantity)));
}

export function addLine(cart: Cart, productKey: string, quantity: number): Cart {
  if (cart.length >= MAX_CART_LINES) throw new CartFullError();
  return [...cart, { productKey, quantity: clampQuantity(quantity) }];
}

export function removeLine(cart: Cart, position: number): Cart {
  return cart.filter((_, index) => index !== position);
}

export function setLineQuantity(cart: Cart, position: number, quantity: number): Cart {
  return cart.map((line, index) => (index === position ? { ...line, quantity: clampQuantity(quantity) } : line));
}

export function totalQuantity(cart: Cart): number {
  return cart.reduce((sum, line) => sum + line.quantity, 0);
}

/** Keeps only well-formed lines, at most MAX_CART_LINES; used on anything read back from a browser. */
/** A product key as the catalog writes them (`{brand}-{Id}`): no spaces, no control characters, no other punctuation. */
const PRODUCT_KEY = /^[a-z_]{1,40}-[A-Za-z0-9._-]{1,80}$/;

export function sanitizeCart(value: unknown): CartLine[] {
  if (!Array.isArray(value)) return [];
  const lines: CartLine[] = [];
  for (const item of value) {
    if (lines.length >= MAX_CART_LINES) break;
    if (!item || typeof item !== "object") continue;
    const { productKey, quantity } = item as Record<string, unknown>;
    if (typeof productKey !== "string" || !PRODUCT_KEY.test(productKey)) continue;
    lines.push({ productKey, quantity: clampQuantity(Number(quantity)) });
  }
  return lines;
}

/**
 * The cart once a purchase is paid: the paid quantities are taken off the
 * lines, earliest first, so lines added (or quantities raised) while the
 * payment was under way stay in the cart.
 */
export function cartWithoutPaidItems(cart: Cart, paid: readonly { productKey: string; quantity: number }[]): CartLine[] {
  const unpaid = new Map<string, number>();
  for (const item of paid) unpaid.set(item.productKey, (unpaid.get(item.productKey) ?? 0) + item.quantity);
  return cart.flatMap((line) => {
    const owed = unpaid.get(line.productKey) ?? 0;
    const taken = Math.min(owed, line.quantity);
    if (taken > 0) unpaid.set(line.productKey, owed - taken);
    return line.quantity - taken > 0 ? [{ productKey: line.productKey, quantity: line.quantity - taken }] : [];
  });
}
