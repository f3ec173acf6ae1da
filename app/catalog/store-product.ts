import type { Specification } from "./product";

/**
 * A product as the app uses it once loaded: money in integer cents, the
 * `{brand}-{Id}` key for URLs. Built from the database row, never from
 * anything a browser sent.
 */
export interface StoreProduct {
  key: string;
  id: string;
  brand: string;
  model: string;
  title: string;
  /** The price a shopper pays now: the sale price while the merchant's sale runs, else the regular price. */
  priceCents: number;
  /** The merchant's struck-through "was" price, above `priceCents`, or null (then the spec's factor price is struck: pricing.ts). */
  wasCents: number | null;
  /** The merchant's sale runs now (`priceCents` is its sale price). */
  onSale: boolean;
  image: string;
  images: string[];
  categories: string[];
  specifications: Specification[];
  description: string;
  /** Colour, fuel, size...: what the card shows under its title (card-facts.server.ts). */
  facts: string[];
}

/** The fields a list or card needs; keeps list pages light. */
export type ProductSummary = Pick<
  StoreProduct,
  "key" | "id" | "brand" | "model" | "title" | "priceCents" | "wasCents" | "onSale" | "image" | "categories" | "facts"
>;

/**
 * What a product card shows: list pages send only these fields to the browser. `stock` and `soldOut` come
 * from the stock read for the page (app/stock/shopper-stock.ts), only on a card not in plain stock.
 */
export type ProductCardData = Pick<StoreProduct, "key" | "id" | "title" | "priceCents" | "wasCents" | "onSale" | "image" | "brand" | "facts"> & {
  /** The availability line in place of the brand's lead time: "Only 3 left · …", "Out of stock", a lead time. */
  stock?: string;
  /** Out of stock: no ADD TO CART. */
  soldOut?: true;
};

export function cardData({ key, id, title, priceCents, wasCents, onSale, image, brand, facts }: ProductCardData): ProductCardData {
  return { key, id, title, priceCents, wasCents, onSale, image, brand, facts };
}

/**
 * A catalogue price (dollars, checked by the catalogue's schema: two decimals at most) in cents. The browser
 * runs it too (the seasoning's price): written out here rather than importing utils/money into the first-load
 * script; money.test.ts holds it to centsOfDecimal.
 */
export function priceToCents(price: number): number {
  return Math.round(price * 100);
}

/** The display path for product detail: the own seasoning has its own page. */
export function productPath(product: Pick<StoreProduct, "key" | "id">): string {
  return product.id === "LOVE-RUB-001" ? "/custom-product" : `/product/${encodeURIComponent(product.key)}`;
}
