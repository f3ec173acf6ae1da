import { and, inArray, not } from "drizzle-orm";
import { cachedProductByKey } from "~/catalog/cached-queries.server";
import { productSummaryColumns, shownInStore } from "~/catalog/product-columns.server";
import type { ProductSummary } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { products } from "~/db/schema";
import { cartShippingCents } from "~/pricing/pricing";
import type { CartLine } from "./cart";

export interface PricedCartLine {
  position: number;
  productKey: string;
  id: string;
  model: string;
  brand: string;
  title: string;
  image: string;
  categories: string[];
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
}

/** A line of a product the merchant has hidden since it was added: shown as no longer available, in no total, never checked out. */
export type UnavailableCartLine = Pick<
  PricedCartLine,
  "position" | "productKey" | "id" | "model" | "brand" | "title" | "image" | "quantity"
>;

export interface PricedCart {
  lines: PricedCartLine[];
  /** Lines of products no longer available (hidden by the merchant): the cart shows them to be removed, checkout refuses them. */
  unavailable: UnavailableCartLine[];
  totalQuantity: number;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

/** The catalogue's summaries of the products with these keys (those still sold); `published: false`: hidden by the merchant. */
type SummaryReader = (keys: string[]) => Promise<ReadonlyArray<ProductSummary & { published?: boolean }>>;

/**
 * The cart with names and prices (the prices now: product-columns.server.ts) from the catalog, read from
 * the database: what the cart and checkout pages show and what a shopper pays. A line whose product has
 * left the catalogue is left out; one the merchant hid is in `unavailable` (positions stay those of the
 * stored cart).
 */
export function priceCart(db: Database, cart: readonly CartLine[]): Promise<PricedCart> {
  return priceLines(cart, (keys) =>
    db
      .select({ ...productSummaryColumns, published: products.published })
      .from(products)
      .where(inArray(products.key, keys)),
  );
}

/**
 * Whether every line of the cart is of a product the store still sells: refused, naming each product the
 * merchant hid since it was added, in the words of the cart page (unavailableLinesMessage).
 */
export async function checkCartAvailable(db: Database, cart: readonly CartLine[]): Promise<{ ok: true } | { ok: false; message: string }> {
  const keys = [...new Set(cart.map((line) => line.productKey))];
  if (keys.length === 0) return { ok: true };
  const hidden = await db
    .select({ productKey: products.key, title: products.title })
    .from(products)
    .where(and(inArray(products.key, keys), not(shownInStore)));
  const message = unavailableLinesMessage(hidden.sort((a, b) => keys.indexOf(a.productKey) - keys.indexOf(b.productKey)));
  return message === null ? { ok: true } : { ok: false, message };
}

/** What the cart and checkout say of lines no longer available: "X is no longer available: please remove it from your cart." */
export function unavailableLinesMessage(lines: readonly Pick<UnavailableCartLine, "productKey" | "title">[]): string | null {
  const titles = [...new Map(lines.map((line) => [line.productKey, line.title])).values()];
  return titles.length > 0 ? titles.map((title) => `${title} is no longer available: please remove it from your cart.`).join(" ") : null;
}

/**
 * The same cart priced from the catalogue memo (the products as the product pages show them, until
 * the next catalogue load), for what every page shows of it: the header's count and the browser's
 * copy. It costs no query once the products are known. Never for an amount anyone pays.
 */
export function priceCartForDisplay(db: Database, cart: readonly CartLine[]): Promise<PricedCart> {
  return priceLines(cart, async (keys) => {
    const found = await Promise.all(keys.map((key) => cachedProductByKey(db, key)));
    return found.filter((product) => product !== null);
  });
}

async function priceLines(cart: readonly CartLine[], readSummaries: SummaryReader): Promise<PricedCart> {
  const keys = [...new Set(cart.map((line) => line.productKey))];
  const rows = keys.length ? await readSummaries(keys) : [];
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const lines: PricedCartLine[] = [];
  const unavailable: UnavailableCartLine[] = [];
  cart.forEach((line, position) => {
    const product = byKey.get(line.productKey);
    if (!product) return;
    if (product.published === false) {
      const { key: productKey, id, model, brand, title, image } = product;
      unavailable.push({ position, productKey, id, model, brand, title, image, quantity: line.quantity });
      return;
    }
    lines.push({
      position,
      productKey: product.key,
      id: product.id,
      model: product.model,
      brand: product.brand,
      title: product.title,
      image: product.image,
      categories: product.categories,
      unitPriceCents: product.priceCents,
      quantity: line.quantity,
      lineTotalCents: product.priceCents * line.quantity,
    });
  });
  const subtotalCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const shippingCents = lines.length ? cartShippingCents(subtotalCents) : 0;
  return {
    lines,
    unavailable,
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotalCents,
    shippingCents,
    totalCents: subtotalCents + shippingCents,
  };
}

/** The cart as the browser's localStorage keeps it (the spec's cart item fields plus the product key). */
export function mirroredCart(cart: PricedCart): MirroredCartItem[] {
  return cart.lines.map((line) => ({
    productKey: line.productKey,
    Id: line.id,
    Model: line.model,
    brand: line.brand,
    Title: line.title,
    Price: line.unitPriceCents / 100,
    Image: line.image,
    Category: line.categories,
    quantity: line.quantity,
  }));
}

export interface MirroredCartItem {
  productKey: string;
  Id: string;
  Model: string;
  brand: string;
  Title: string;
  Price: number;
  Image: string;
  Category: string[];
  quantity: number;
}
