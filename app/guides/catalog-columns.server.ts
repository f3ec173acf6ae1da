import { sql } from "drizzle-orm";
import { productSummaryColumns } from "~/catalog/product-columns.server";
import { products } from "~/db/schema";

/** The columns a guide's product list needs (a card plus the normalized specifications). */
export const guideColumns = { ...productSummaryColumns, specValues: products.specValues };

/** A numeric normalized value (null when the product has none), for filters and sorting. */
export function specNumber(field: string) {
  return sql<number | null>`(${products.specValues} ->> ${sql.raw(`'${field.replace(/[^a-zA-Z]/g, "")}'`)})::numeric`;
}

/** A text normalized value. */
export function specText(field: string) {
  return sql<string | null>`(${products.specValues} ->> ${sql.raw(`'${field.replace(/[^a-zA-Z]/g, "")}'`)})`;
}
