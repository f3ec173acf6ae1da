import { and, arrayOverlaps, asc, eq, gte, ilike, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import { memoized, UNTIL_RELOAD } from "~/catalog/catalog-memo.server";
import type { Database } from "~/db/database.server";
import { products } from "~/db/schema";
import type { SpecValues } from "~/catalog/spec-values";
import { priceNowCents, shownInStore } from "~/catalog/product-columns.server";
import { guideColumns, specNumber, specText } from "./catalog-columns.server";
import { FIT_TYPES, OVERSIZE_ALLOWANCE, snugness, type Cutout, type FitQuery, type Opening } from "./fit";

export const FIT_LIMIT = 48;

export interface FitProduct {
  key: string;
  id: string;
  brand: string;
  model: string;
  title: string;
  priceCents: number;
  image: string;
  cutout: Cutout;
  fuelType: string | null;
  snugness: number;
}

export interface PickedGrill {
  key: string;
  id: string;
  title: string;
  cutout: Cutout | null;
}

export interface FitAnswer {
  opening: Opening | null;
  picked: PickedGrill | null;
  /** When `grill` named no product exactly: products whose title or model matches the words. */
  suggestions: PickedGrill[];
  results: FitProduct[];
  total: number;
}

function cutoutOf(values: SpecValues): Cutout | null {
  if (values.cutoutWidth === undefined || values.cutoutDepth === undefined) return null;
  return { width: values.cutoutWidth, depth: values.cutoutDepth, height: values.cutoutHeight ?? null };
}

/** The product a shopper picked as "my grill": by key, then by model number; otherwise title suggestions. */
async function pickGrill(db: Database, text: string): Promise<{ picked: PickedGrill | null; suggestions: PickedGrill[] }> {
  const columns = { key: products.key, id: products.sourceId, title: products.title, specValues: products.specValues };
  const toPicked = (row: { key: string; id: string; title: string; specValues: SpecValues }) => ({
    key: row.key,
    id: row.id,
    title: row.title,
    cutout: cutoutOf(row.specValues),
  });
  const [exact] = await db
    .select(columns)
    .from(products)
    .where(and(shownInStore, or(eq(products.key, text), sql`lower(${products.model}) = lower(${text})`)))
    .orderBy(asc(products.position))
    .limit(1);
  if (exact) return { picked: toPicked(exact), suggestions: [] };
  const words = text
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .slice(0, 6);
  if (words.length === 0) return { picked: null, suggestions: [] };
  const rows = await db
    .select(columns)
    .from(products)
    .where(
      and(
        shownInStore,
        isNotNull(specNumber("cutoutWidth")),
        ...words.map((word) =>
          or(ilike(products.title, `%${word.replace(/[\\%_]/g, "\\$&")}%`), ilike(products.model, `%${word.replace(/[\\%_]/g, "\\$&")}%`)),
        ),
      ),
    )
    .orderBy(asc(products.position))
    .limit(10);
  return { picked: null, suggestions: rows.map(toPicked) };
}

/** Built-in products whose required cutout fits the opening (see fit.ts), snuggest first, then cheapest. */
export async function findByCutout(db: Database, query: FitQuery, limit = FIT_LIMIT): Promise<FitAnswer> {
  let opening = query.opening;
  let picked: PickedGrill | null = null;
  let suggestions: PickedGrill[] = [];
  if (query.grill) {
    ({ picked, suggestions } = await pickGrill(db, query.grill));
    if (picked?.cutout && !opening) opening = picked.cutout;
  }
  if (!opening) return { opening: null, picked, suggestions, results: [], total: 0 };

  const width = specNumber("cutoutWidth");
  const depth = specNumber("cutoutDepth");
  const height = specNumber("cutoutHeight");
  const conditions: SQL[] = [
    shownInStore,
    sql`${width} between ${opening.width - query.gap} and ${opening.width + OVERSIZE_ALLOWANCE}`,
    sql`${depth} between ${opening.depth - query.gap} and ${opening.depth + OVERSIZE_ALLOWANCE}`,
  ];
  if (opening.height !== null) conditions.push(sql`(${height} is null or ${height} <= ${opening.height + OVERSIZE_ALLOWANCE})`);
  const categories = FIT_TYPES[query.type].categories;
  if (categories.length > 0) conditions.push(arrayOverlaps(products.categories, [...categories]));
  if (query.brand) conditions.push(eq(products.brand, query.brand));
  if (query.fuel) conditions.push(sql`${specText("fuelType")} = ${query.fuel}`);
  if (query.minPriceCents !== null) conditions.push(gte(priceNowCents, query.minPriceCents));
  if (query.maxPriceCents !== null) conditions.push(lte(priceNowCents, query.maxPriceCents));
  if (picked) conditions.push(sql`${products.key} <> ${picked.key}`);

  const snug = sql`abs(${width} - ${opening.width}) + abs(${depth} - ${opening.depth})`;
  const rows = await db
    .select({ ...guideColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(products)
    .where(and(...conditions))
    .orderBy(snug, asc(priceNowCents), asc(products.position))
    .limit(limit);
  const results = rows.map((row) => {
    const cutout = cutoutOf(row.specValues) as Cutout;
    return {
      key: row.key,
      id: row.id,
      brand: row.brand,
      model: row.model,
      title: row.title,
      priceCents: row.priceCents,
      image: row.image,
      cutout,
      fuelType: typeof row.specValues.fuelType === "string" ? row.specValues.fuelType : null,
      snugness: snugness(cutout, opening),
    };
  });
  return { opening, picked, suggestions, results, total: rows[0]?.total ?? 0 };
}

/** The finder's answer for a search, kept until the catalogue is reloaded (the memo's bound keeps odd searches from piling up). */
export function cachedFindByCutout(db: Database, query: FitQuery): Promise<FitAnswer> {
  return memoized(db, `fit:${JSON.stringify(query)}`, UNTIL_RELOAD, () => findByCutout(db, query));
}
