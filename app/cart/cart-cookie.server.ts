import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import { sanitizeCart, type Cart, type CartLine } from "./cart";

const cartCookie = signedCookie("cart", { maxAge: 60 * 60 * 24 * 30 });

/** The cart the browser holds; a missing, tampered or malformed cookie is an empty cart. */
export async function readCart(keys: CookieKeys, request: Request): Promise<CartLine[]> {
  return (await readCartCookie(keys, request)).lines;
}

/**
 * The cart and whether this browser has a cart cookie at all. An emptied cart
 * keeps its (empty) cookie, so the browser's localStorage copy is only used to
 * restore a cart whose cookie is gone, never one the shopper emptied.
 */
export async function readCartCookie(keys: CookieKeys, request: Request): Promise<{ lines: CartLine[]; present: boolean }> {
  const value = await cartCookie.parse(keys, request);
  if (!Array.isArray(value)) return { lines: [], present: false };
  const lines = sanitizeCart(value.map((entry) => (Array.isArray(entry) ? { productKey: entry[0], quantity: entry[1] } : null)));
  return { lines, present: true };
}

/** Set-Cookie value holding the cart compactly as [key, quantity] pairs. */
export async function cartCookieHeader(keys: CookieKeys, request: Request, cart: Cart): Promise<string> {
  return cartCookie.serialize(
    keys,
    request,
    cart.map((line) => [line.productKey, line.quantity]),
  );
}
