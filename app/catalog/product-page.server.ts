import { productFitFacts } from "~/guides/fits.server";
import type { FitProductFacts } from "~/guides/fits";
import { splitDescription } from "./description/legal";
import type { StoreProduct } from "./store-product";
import { variationOptions, type VariationOption } from "./variations";

/**
 * What the product page works out from the catalogue alone, made once per product: the catalogue
 * memo hands every shopper the same product and sibling objects until the catalogue reloads, so
 * these are worked out again only then. (Comparing every sibling's specifications and reading the
 * fit facts was 3% of the CPU of rendering a product page.) Shared by every request: read-only.
 */
const fitFactsByProduct = new WeakMap<StoreProduct, FitProductFacts>();
const pagePartsByProduct = new WeakMap<StoreProduct, { siblings: readonly StoreProduct[]; parts: ProductPageParts }>();

export interface ProductPageParts {
  variations: VariationOption[];
  /** The description above its legal section, and that section. */
  body: string;
  legal: string;
}

/** The facts the fit rules need (guides/fits.ts). */
export function keptFitFacts(product: StoreProduct): FitProductFacts {
  let facts = fitFactsByProduct.get(product);
  if (!facts) {
    facts = productFitFacts(product);
    fitFactsByProduct.set(product, facts);
  }
  return facts;
}

/** The variation dropdowns (from the product and its siblings) and the description's two parts. */
export function productPageParts(product: StoreProduct, siblings: readonly StoreProduct[]): ProductPageParts {
  const kept = pagePartsByProduct.get(product);
  if (kept && kept.siblings === siblings) return kept.parts;
  const { body, legal } = splitDescription(product.description);
  const parts = { variations: variationOptions(product, siblings), body, legal };
  pagePartsByProduct.set(product, { siblings, parts });
  return parts;
}
