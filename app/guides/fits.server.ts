import { and, arrayOverlaps, asc, eq, not, or, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products } from "~/db/schema";
import { memoized, UNTIL_RELOAD } from "~/catalog/catalog-memo.server";
import { normalizeSpecs, type SpecValues } from "~/catalog/spec-values";
import type { ProductSummary, StoreProduct } from "~/catalog/store-product";
import { shownInStore } from "~/catalog/product-columns.server";
import { guideColumns } from "./catalog-columns.server";
import { accessoryFitsGrill, isGrill, isGrillAccessory, type FitProductFacts } from "./fits";

/** How many products a "fits" list shows, and how many same-brand candidates are checked at most. */
export const FITS_LIMIT = 24;
const CANDIDATES = 3000;
const GRILL_CATEGORIES = ["Built-In Grills", "BBQ Grills & Smokers"];

type Candidate = ProductSummary & { specValues: SpecValues };

function factsOf(
  product: { key: string; brand: string; title: string; categories: readonly string[] },
  values: SpecValues,
): FitProductFacts {
  return {
    key: product.key,
    brand: product.brand,
    title: product.title,
    categories: product.categories,
    grillModel: values.grillModel ?? null,
    collection: values.collection ?? null,
    fuelType: values.fuelType ?? null,
  };
}

/** The facts the matching rules need, for a product as the product page loads it. */
export function productFitFacts(product: Pick<StoreProduct, "key" | "brand" | "title" | "categories" | "specifications">): FitProductFacts {
  return factsOf(product, normalizeSpecs(product.specifications));
}

const summary = ({ specValues: _values, ...product }: Candidate): ProductSummary => product;

/** On a grill's page: covers, burners, doors, rotisseries and parts of its brand that fit it (fits.ts). */
export async function accessoriesForGrill(db: Database, grill: FitProductFacts, limit = FITS_LIMIT): Promise<ProductSummary[]> {
  if (!isGrill(grill)) return [];
  const rows: Candidate[] = await db
    .select(guideColumns)
    .from(products)
    .where(
      and(
        shownInStore,
        eq(products.brand, grill.brand),
        not(arrayOverlaps(products.categories, GRILL_CATEGORIES)),
        or(sql`${products.specValues} ? 'grillModel'`, sql`${products.specValues} ? 'collection'`),
      ),
    )
    .orderBy(asc(products.position))
    .limit(CANDIDATES);
  return rows
    .filter((row) => accessoryFitsGrill(factsOf(row, row.specValues), grill))
    .slice(0, limit)
    .map(summary);
}

/** On an accessory's page: the grills of its brand it fits. */
export async function grillsForAccessory(db: Database, accessory: FitProductFacts, limit = FITS_LIMIT): Promise<ProductSummary[]> {
  if (!isGrillAccessory(accessory)) return [];
  const rows: Candidate[] = await db
    .select(guideColumns)
    .from(products)
    .where(and(shownInStore, eq(products.brand, accessory.brand), arrayOverlaps(products.categories, GRILL_CATEGORIES)))
    .orderBy(asc(products.position))
    .limit(CANDIDATES);
  const seen = new Set<string>();
  return rows
    .filter((row) => {
      if (seen.has(row.key) || !accessoryFitsGrill(accessory, factsOf(row, row.specValues))) return false;
      seen.add(row.key);
      return true;
    })
    .slice(0, limit)
    .map(summary);
}

/**
 * The two lists a product page shows, computed once per catalogue load (the matching reads up to
 * 3,000 candidates: about a tenth of a product page's time when done on every visit).
 */
export function cachedFitLists(db: Database, product: FitProductFacts): Promise<[ProductSummary[], ProductSummary[]]> {
  return memoized(db, `fits:${product.key}`, UNTIL_RELOAD, () =>
    Promise.all([accessoriesForGrill(db, product), grillsForAccessory(db, product)]),
  );
}
