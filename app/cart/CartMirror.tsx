import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { MirroredCartItem } from "./cart-view.server";

export const CART_STORAGE_KEY = "cart";

/**
 * Keeps localStorage["cart"] equal to the server's cart (the signed cookie is
 * the source of truth). At start, if there is no cart cookie but this browser
 * remembers a cart (say the cookie expired), the remembered lines are posted
 * back once so the server can restore them from the catalog.
 */
export function CartMirror({ cart, serverHasCart }: { cart: MirroredCartItem[]; serverHasCart: boolean }) {
  const fetcher = useFetcher();
  const restoreTried = useRef(false);

  useEffect(() => {
    if (!restoreTried.current) {
      restoreTried.current = true;
      const remembered = readStoredCart();
      if (!serverHasCart && remembered.length > 0) {
        const lines = remembered.map((item) => ({ productKey: item.productKey, quantity: item.quantity }));
        fetcher.submit({ intent: "restore", mode: "fetch", lines: JSON.stringify(lines) }, { method: "post", action: "/cart" });
        return;
      }
    }
    writeStoredCart(cart);
    // fetcher is only used once, on the first run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cart]);

  return null;
}

function readStoredCart(): Array<{ productKey: string; quantity: number }> {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? "[]");
    return Array.isArray(value) ? value.filter((item) => typeof item?.productKey === "string") : [];
  } catch {
    return [];
  }
}

function writeStoredCart(cart: MirroredCartItem[]) {
  try {
    if (cart.length === 0) window.localStorage.removeItem(CART_STORAGE_KEY);
    else window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(cart));
  } catch {
    // Storage may be full or disabled; the cookie still holds the cart.
  }
}
