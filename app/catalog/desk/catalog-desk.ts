import { cleanText } from "~/utils/request-text";

/** The catalogue desk's addresses (`/catalog`): its search and filters, read and written the same way. */

export interface CatalogDeskQuery {
  /** Words of the product key, title or model (at most 100 characters). */
  q: string;
  /** One brand's products, or every brand's (empty). */
  brand: string;
  /** One category's products (a brand's or every brand's), or every category's (empty). */
  category: string;
  hidden: boolean;
  onSale: boolean;
  /** From 1 to 1,000. */
  page: number;
}

/** The query as the desk reads it: each text without control characters (app/utils/request-text.ts), at most 100 characters. */
export function parseCatalogDeskQuery(params: URLSearchParams): CatalogDeskQuery {
  const page = Number.parseInt(params.get("page") ?? "", 10);
  const text = (name: string) => cleanText(params.get(name) ?? "").trim().slice(0, 100);
  return {
    q: text("q"),
    brand: text("brand"),
    category: text("category"),
    hidden: params.get("hidden") === "1",
    onSale: params.get("sale") === "1",
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, 1000) : 1,
  };
}

export function catalogDeskHref({ q, brand, category, hidden, onSale, page }: Partial<CatalogDeskQuery>): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (brand) params.set("brand", brand);
  if (category) params.set("category", category);
  if (hidden) params.set("hidden", "1");
  if (onSale) params.set("sale", "1");
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/catalog?${query}` : "/catalog";
}

export function catalogProductHref(productKey: string): string {
  return `/catalog/${encodeURIComponent(productKey)}`;
}

/** The CSV download of the products a brand and category filter selects (empty: every one). */
export function catalogCsvHref({ brand, category }: Pick<CatalogDeskQuery, "brand" | "category">): string {
  const params = new URLSearchParams();
  if (brand) params.set("brand", brand);
  if (category) params.set("category", category);
  const query = params.toString();
  return query ? `/catalog.csv?${query}` : "/catalog.csv";
}

/** The product page's two forms, as their `intent` field names them (the page renders them, the server parses them). */
export const DESK_PRICE_INTENT = "prices";
export const DESK_DETAILS_INTENT = "details";
