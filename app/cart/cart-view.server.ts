import { inArray } from "drizzle-orm";
import { cachedProductByKey } from "~/catalog/cached-queries.server";
import { productSummaryColumns } from "~/catalog/product-columns.server";
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

export interface PricedCart {
  lines: PricedCartLine[];
  totalQuantity: number;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

/** The catalogue's summaries of the products with these keys (those still sold). */
type SummaryReader = (keys: string[]) => Promise<readonly ProductSummary[]>;

/**
 * The cart with names and prices from the catalog, read from the database: what the cart and
 * checkout pages show and what a shopper pays. A line whose product is no longer sold is left out
 * (positions stay those of the stored cart).
 */
export function priceCart(db: Database, cart: readonly CartLine[]): Promise<PricedCart> {
  return priceLines(cart, (keys) => db.select(productSummaryColumns).from(products).where(inArray(products.key, keys)));
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
  cart.forEach((line, position) => {
    const product = byKey.get(line.productKey);
    if (!product) return;
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
