/**
 * What a product's stock means to a shopper: in stock, only a few left, out of stock, or made to order with
 * its lead time. Plain data and one pure rule, shared by the product page, the cards, search results and
 * the JSON-LD, so every place says the same.
 */

/** Below this many units available, pages say "Only N left". */
export const LOW_STOCK_THRESHOLD = 5;

export type Availability =
  /** `available`: for the server's checks (null: not counted); pages say only "In Stock". */
  | { kind: "in-stock"; available: number | null }
  | { kind: "low"; available: number }
  | { kind: "out" }
  | { kind: "made-to-order"; leadTime: string };

/**
 * A product's stock as pages get it: tracked units available (on hand less what checkouts hold), made to
 * order, or not counted (a product inserted without a stock row, as tests do; every catalogue load gives one).
 */
export type StockLevel = { policy: "tracked"; available: number } | { policy: "made-to-order"; leadTime: string } | { policy: "untracked" };

export function availabilityOf(stock: StockLevel): Availability {
  if (stock.policy === "made-to-order") return { kind: "made-to-order", leadTime: stock.leadTime };
  if (stock.policy === "untracked") return { kind: "in-stock", available: null };
  if (stock.available <= 0) return { kind: "out" };
  if (stock.available <= LOW_STOCK_THRESHOLD) return { kind: "low", available: stock.available };
  return { kind: "in-stock", available: stock.available };
}

/** The words pages show for it. */
export function availabilityLabel(availability: Availability): string {
  switch (availability.kind) {
    case "in-stock":
      return "In Stock";
    case "low":
      return `Only ${availability.available} left`;
    case "out":
      return "Out of stock";
    case "made-to-order":
      return `Made to order: ships in ${availability.leadTime}`;
  }
}

/** schema.org's ItemAvailability for the product's JSON-LD offer. */
export function schemaOrgAvailability(availability: Availability): string {
  switch (availability.kind) {
    case "in-stock":
      return "https://schema.org/InStock";
    case "low":
      return "https://schema.org/LimitedAvailability";
    case "out":
      return "https://schema.org/OutOfStock";
    case "made-to-order":
      return "https://schema.org/MadeToOrder";
  }
}

/** How many a shopper can buy now: what is available, or any number (null) of a product made for the order or not counted. */
export function buyableQuantity(availability: Availability): number | null {
  if (availability.kind === "made-to-order") return null;
  return availability.kind === "out" ? 0 : availability.available;
}
