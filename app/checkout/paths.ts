import type { CheckoutKind } from "~/db/schema";

/** The page a checkout of this kind was made on, showing that checkout again. */
export function checkoutPagePath(kind: CheckoutKind, token?: string): string {
  const path = kind === "cart" ? "/checkout" : kind === "seasoning" ? "/custom-product-checkout" : "/single-product-checkout";
  return token ? `${path}?checkout=${encodeURIComponent(token)}` : path;
}
