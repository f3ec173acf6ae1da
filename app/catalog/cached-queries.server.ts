import type { Database } from "~/db/database.server";
import { forgetMemoEntry, memoized, RANDOM_PICK_MS, UNTIL_RELOAD } from "./catalog-memo.server";
import { storedDescription } from "./descriptions.server";
import {
  getProductByKey,
  listProducts,
  randomProducts,
  relatedProducts,
  searchProducts,
  typeahead,
  variationSiblings,
  type ProductPage,
} from "./queries.server";
import { searchWords } from "./search";
import type { ProductSummary, StoreProduct } from "./store-product";

/**
 * The catalogue queries pages call on every visit, answered from the
 * in-process memo (catalog-memo.server.ts): what every shopper sees alike is
 * computed once per catalogue load, random picks once a minute.
 */

export function cachedListProducts(db: Database, args: { brand: string; category: string; page: number }): Promise<ProductPage> {
  const page = Math.max(1, Math.floor(args.page) || 1);
  return memoized(db, `list:${args.brand}\u0000${args.category}\u0000${page}`, UNTIL_RELOAD, () => listProducts(db, { ...args, page }));
}

export function cachedSearchProducts(db: Database, text: string, { page = 1 }: { page?: number } = {}): Promise<ProductPage> {
  const words = searchWords(text).join(" ");
  const current = Math.max(1, Math.floor(page) || 1);
  return memoized(db, `search:${words}\u0000${current}`, UNTIL_RELOAD, () => searchProducts(db, text, { page: current }));
}

export function cachedTypeahead(db: Database, text: string): ReturnType<typeof typeahead> {
  return memoized(db, `typeahead:${searchWords(text).slice(0, 8).join(" ")}`, UNTIL_RELOAD, () => typeahead(db, text));
}

export function cachedProductByKey(db: Database, key: string): Promise<StoreProduct | null> {
  return memoized(db, `product:${key}`, UNTIL_RELOAD, () => getProductByKey(db, key));
}

export function cachedVariationSiblings(db: Database, product: Parameters<typeof variationSiblings>[1]): Promise<StoreProduct[]> {
  return memoized(db, `siblings:${product.key}`, UNTIL_RELOAD, () => variationSiblings(db, product));
}

/** Related products are random: the pick for a product is kept for a minute. */
export function cachedRelatedProducts(
  db: Database,
  args: { categories: readonly string[]; excludeKey?: string; limit: number },
): Promise<ProductSummary[]> {
  return memoized(db, `related:${args.excludeKey ?? ""}\u0000${args.categories.join("\u0001")}\u0000${args.limit}`, RANDOM_PICK_MS, () =>
    relatedProducts(db, args),
  );
}

/** The home page's promotions: drawn again every minute. */
export function cachedRandomProducts(db: Database, wanted: number): Promise<ProductSummary[]> {
  return memoized(db, `random:${wanted}`, RANDOM_PICK_MS, () => randomProducts(db, wanted));
}

/** A stored description never changes once made; a missing one is asked for again next time. */
export async function cachedStoredDescription(db: Database, productKey: string): Promise<string | null> {
  const key = `description:${productKey}`;
  const text = await memoized(db, key, UNTIL_RELOAD, () => storedDescription(db, productKey));
  if (text === null) forgetMemoEntry(db, key);
  return text;
}
