import type { Database } from "~/db/database.server";
import { cachedTypeahead } from "./cached-queries.server";
import { productPath } from "./store-product";

/**
 * The header search box's typeahead: at most five products, best first, each as the box draws it.
 * Server-only, so the route's browser module (it has a `handle`) does not take the catalogue's
 * modules into a script file of their own.
 */
export async function searchSuggestions(db: Database, text: string) {
  const matches = await cachedTypeahead(db, text);
  return matches.map(({ product, score }) => ({
    score,
    product: { key: product.key, title: product.title, image: product.image, path: productPath(product) },
  }));
}
