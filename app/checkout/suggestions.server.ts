import { randomProducts } from "~/catalog/queries.server";
import type { ProductSummary } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";

/** How many products the checkout-area carousel (spec section 9: 4 slides on desktop) offers. */
const CHECKOUT_SUGGESTIONS = 12;

/** The products of the carousel below every checkout form: one random product per brand. */
export function checkoutSuggestions(db: Database): Promise<ProductSummary[]> {
  return randomProducts(db, CHECKOUT_SUGGESTIONS);
}
