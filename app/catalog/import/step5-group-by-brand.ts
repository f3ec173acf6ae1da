import type { BrandKey, CatalogProduct } from "../product";
import { BRAND_KEYS } from "../product";
import { CUSTOM_PRODUCTS } from "../custom-product";
import { compareIds } from "./normalize";
import type { ValidProduct } from "./step3-validate";

/** Step 5 of the import (see ./pipeline.ts): records are grouped by brand, the store's own products added, and sorted by Id (numeric Ids by value). */
export function groupByBrand(kept: readonly ValidProduct[]): Record<BrandKey, CatalogProduct[]> {
  const catalog = Object.fromEntries(BRAND_KEYS.map((brand) => [brand, [] as CatalogProduct[]])) as Record<BrandKey, CatalogProduct[]>;
  for (const { product } of kept) catalog[product.brand].push(product);
  for (const product of CUSTOM_PRODUCTS) catalog[product.brand].push(product);
  for (const brand of BRAND_KEYS) catalog[brand].sort((a, b) => compareIds(a.Id, b.Id));
  return catalog;
}
