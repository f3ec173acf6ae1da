import { eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { products } from "~/db/schema";
import type { ProductSummary, StoreProduct } from "./store-product";

/**
 * Whether the merchant's sale runs now, by the database's clock: a sale price is set, its start (if any)
 * has come (inclusive) and its end (if any) not yet (exclusive). The one rule of "on sale" for the
 * storefront; the catalogue desk's own view may read it too.
 */
export const saleRunsNow: SQL<boolean> = sql<boolean>`(${products.salePriceCents} is not null and (${products.saleStartsAt} is null or ${products.saleStartsAt} <= now()) and (${products.saleEndsAt} is null or now() < ${products.saleEndsAt}))`;

/**
 * The price a shopper pays now, in cents: the sale price while the sale runs, else the regular
 * `price_cents`. Every storefront read of a price (shown, charged, filtered or sorted by) goes through
 * this expression, never `products.priceCents` itself.
 */
export const priceNowCents: SQL<number> = sql<number>`(case when ${saleRunsNow} then ${products.salePriceCents} else ${products.priceCents} end)`.mapWith(
  products.priceCents,
);

/**
 * The struck-through "was" price the merchant set, in cents, or null: while a sale runs, the greater of
 * the regular price and the compare-at price; otherwise the compare-at price. Only ever a price above
 * the price now (a "was" price at or below it says nothing).
 */
export const wasPriceCents: SQL<number | null> = sql<number | null>`(case when ${saleRunsNow} then (case when greatest(${products.priceCents}, ${products.compareAtCents}) > ${products.salePriceCents} then greatest(${products.priceCents}, ${products.compareAtCents}) end) when ${products.compareAtCents} > ${products.priceCents} then ${products.compareAtCents} end)`.mapWith(
  products.priceCents,
);

/** The storefront's condition on every product read: a product the merchant hid is not there (staff pages read without it). */
export const shownInStore: SQL = eq(products.published, true);

type Selected = AnyPgColumn | SQL.Aliased;

/** The columns a ProductSummary is read from (lists, cards, the cart), under the app's names: `id` is the catalogue's Id. */
export const productSummaryColumns = {
  key: products.key,
  id: products.sourceId,
  brand: products.brand,
  model: products.model,
  title: products.title,
  // Aliased: several queries select these from a subquery (randomProducts, randomProductPerBrand).
  priceCents: priceNowCents.as("price_now_cents"),
  wasCents: wasPriceCents.as("was_cents"),
  onSale: saleRunsNow.as("on_sale"),
  image: products.image,
  categories: products.categories,
  facts: products.facts,
} satisfies Record<keyof ProductSummary, Selected>;

/** The columns a whole StoreProduct is read from (the product page, variations, checkout). */
export const storeProductColumns = {
  ...productSummaryColumns,
  images: products.otherImages,
  specifications: products.specifications,
  description: products.description,
} satisfies Record<keyof StoreProduct, Selected>;
