import { cleanText } from "~/utils/request-text";

/** The stock desk's address (`/stock`): its search, its low-stock filter and its page, read and written the same way. */

export interface StockQuery {
  /** Words of the product key, title, model or brand (at most 100 characters). */
  q: string;
  /** From 1 to 1,000. */
  page: number;
  /** Only tracked products with LOW_STOCK_THRESHOLD or fewer available, out of stock first. */
  low: boolean;
}

export function parseStockQuery(params: URLSearchParams): StockQuery {
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    q: cleanText(params.get("q") ?? "")
      .trim()
      .slice(0, 100),
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, 1000) : 1,
    low: params.get("low") === "1",
  };
}

/** `/stock` with these filters: the address a link or the search form leads to. */
export function stockDeskHref({ q, page, low }: Partial<StockQuery>): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (low) params.set("low", "1");
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/stock?${query}` : "/stock";
}

/** A product's page on the desk. */
export function stockProductHref(productKey: string): string {
  return `/stock/${encodeURIComponent(productKey)}`;
}
