import { leadTime } from "~/catalog/lead-time";
import {
  availabilityLabel,
  availabilityOf,
  buyableQuantity,
  schemaOrgAvailability,
  type Availability,
  type StockLevel,
} from "./availability";

/**
 * What the storefront says of a product's stock, worked out on the server (loaders send the strings, so
 * pages carry no rule of their own), and what the cart and BUY NOW refuse: pure, from `StockLevel`s read
 * per request (never kept in a catalogue memo: stock changes with every sale).
 */

/** The line a card shows of a tracked product in stock (the spec's card line). */
const IN_STOCK_CARD_LINE = "Leaves Warehouse: 24 Hrs";
/** The product page's shipping note of a tracked product in stock. */
const IN_STOCK_DETAIL_NOTE = "Leaves warehouse within 24 Hours";

/** What the product page shows and does: all plain strings, numbers and booleans. */
export interface ProductStockView {
  kind: Availability["kind"];
  /** "In Stock", "Only 3 left", "Out of stock", "Made to order". */
  label: string;
  /** The shipping note beside it ("Leaves warehouse within 24 Hours · Free Shipping"), or "". */
  note: string;
  /** schema.org's ItemAvailability, for the JSON-LD offer. */
  schemaOrg: string;
  /** False when none can be bought: no ADD TO CART or BUY NOW, "Notify me" instead. */
  buyable: boolean;
  /** The most a shopper can buy now; null for any number (made to order, not counted). */
  max: number | null;
}

export function productStockView(level: StockLevel, { freeShipping = false }: { freeShipping?: boolean } = {}): ProductStockView {
  const availability = availabilityOf(level);
  const max = buyableQuantity(availability);
  const shipping =
    availability.kind === "made-to-order"
      ? `Leaves warehouse in ${availability.leadTime}`
      : availability.kind === "out"
        ? ""
        : IN_STOCK_DETAIL_NOTE;
  return {
    kind: availability.kind,
    label: availability.kind === "made-to-order" ? "Made to order" : availabilityLabel(availability),
    note: [shipping, freeShipping ? "Free Shipping" : ""].filter(Boolean).join(" · "),
    schemaOrg: schemaOrgAvailability(availability),
    buyable: max === null || max > 0,
    max,
  };
}

/** What a card adds to its data: only what differs from a card in plain stock, so lists stay light. */
export interface CardStock {
  /** The card's availability line, in place of its brand's lead time (`leadTime(brand).card`). */
  stock?: string;
  /** Out of stock: the card shows no ADD TO CART. */
  soldOut?: true;
}

/**
 * A card's line: "Leaves Warehouse: 24 Hrs" in stock, "Only 3 left · Leaves Warehouse: 24 Hrs" under the
 * threshold, "Out of stock", or the lead time of a product made to order ("Leaves Warehouse: 4 - 6 Weeks").
 * Nothing when the card's own default line already says it.
 */
export function cardStock(brand: string, level: StockLevel | undefined): CardStock | null {
  const availability = availabilityOf(level ?? { policy: "untracked" });
  const fallback = leadTime(brand).card;
  switch (availability.kind) {
    case "out":
      return { stock: availabilityLabel(availability), soldOut: true };
    case "low":
      return { stock: `${availabilityLabel(availability)} · ${IN_STOCK_CARD_LINE}` };
    case "made-to-order": {
      const line = `Leaves Warehouse: ${capitalizeWords(availability.leadTime)}`;
      return line === fallback ? null : { stock: line };
    }
    case "in-stock":
      // A product not counted keeps its brand's line; one counted in stock leaves within 24 hours.
      return availability.available === null || fallback === IN_STOCK_CARD_LINE ? null : { stock: IN_STOCK_CARD_LINE };
  }
}

function capitalizeWords(text: string): string {
  return text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

/** Cards with their stock: a card in plain stock is the same object, so a memoized list is never copied card by card for nothing. */
export function withCardStock<T extends { key: string; brand: string }>(
  cards: readonly T[],
  levels: ReadonlyMap<string, StockLevel>,
): (T & CardStock)[] {
  return cards.map((card) => {
    const stock = cardStock(card.brand, levels.get(card.key));
    return stock ? { ...card, ...stock } : card;
  });
}

/** A quantity a shopper asks for, of one product. */
export interface WantedQuantity {
  productKey: string;
  title: string;
  /** The quantity the change asks for, in all (what the cart would hold of it, or BUY NOW's quantity). */
  quantity: number;
  /** How many of it the cart holds already besides this change (said in the message). */
  inCart?: number;
}

export interface QuantityRefusal {
  productKey: string;
  title: string;
  available: number;
  inCart: number;
}

/** The lines that want more than is available now; made-to-order and uncounted products are never short. */
export function quantityRefusals(wanted: readonly WantedQuantity[], levels: ReadonlyMap<string, StockLevel>): QuantityRefusal[] {
  return wanted.flatMap((line) => {
    const level = levels.get(line.productKey);
    if (level?.policy !== "tracked" || line.quantity <= level.available) return [];
    return [{ productKey: line.productKey, title: line.title, available: level.available, inCart: line.inCart ?? 0 }];
  });
}

/** "Only 2 of Weber Spirit E-310 are left.", "… are left, and your cart already has 2.", "X is out of stock." */
export function quantityRefusalMessage(refusals: readonly QuantityRefusal[]): string {
  return refusals
    .map(({ title, available, inCart }) => {
      if (available <= 0) return `${title} is out of stock.`;
      const left = `Only ${available} of ${title} ${available === 1 ? "is" : "are"} left`;
      return inCart > 0 ? `${left}, and your cart already has ${inCart}.` : `${left}.`;
    })
    .join(" ");
}

/** Cart lines (several may hold one product) as one quantity per product, in the cart's order. */
export function wantedPerProduct(lines: readonly { productKey: string; title: string; quantity: number }[]): WantedQuantity[] {
  const wanted = new Map<string, WantedQuantity>();
  for (const line of lines) {
    const seen = wanted.get(line.productKey);
    wanted.set(line.productKey, { productKey: line.productKey, title: line.title, quantity: (seen?.quantity ?? 0) + line.quantity });
  }
  return [...wanted.values()];
}

/**
 * What the cart and the checkout's details step say of lines the stock no longer covers (it changed since
 * they were added): "Only 2 of X are left, and your cart has 3: please lower the quantity." Null when all are there.
 */
export function cartShortageMessage(
  lines: readonly { productKey: string; title: string; quantity: number }[],
  levels: ReadonlyMap<string, StockLevel>,
): string | null {
  const short = wantedPerProduct(lines).flatMap((line) => {
    const level = levels.get(line.productKey);
    if (level?.policy !== "tracked" || line.quantity <= level.available) return [];
    if (level.available <= 0) return [`${line.title} is out of stock: please remove it from your cart.`];
    const verb = level.available === 1 ? "is" : "are";
    return [`Only ${level.available} of ${line.title} ${verb} left, and your cart has ${line.quantity}: please lower the quantity.`];
  });
  return short.length > 0 ? short.join(" ") : null;
}
