import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { products } from "~/db/schema";
import type { ProductSummary, StoreProduct } from "./store-product";

/** The columns a ProductSummary is read from (lists, cards, the cart), under the app's names: `id` is the catalogue's Id. */
export const productSummaryColumns = {
  key: products.key,
  id: products.sourceId,
  brand: products.brand,
  model: products.model,
  title: products.title,
  priceCents: products.priceCents,
  image: products.image,
  categories: products.categories,
  facts: products.facts,
} satisfies Record<keyof ProductSummary, AnyPgColumn>;

/** The columns a whole StoreProduct is read from (the product page, variations, checkout). */
export const storeProductColumns = {
  ...productSummaryColumns,
  images: products.otherImages,
  specifications: products.specifications,
  description: products.description,
} satisfies Record<keyof StoreProduct, AnyPgColumn>;
