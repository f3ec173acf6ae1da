import { and, arrayContains, arrayOverlaps, asc, count, eq, ilike, inArray, like, ne, notInArray, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import type { Database } from "~/db/database.server";
import { forgetCatalogMemo } from "./catalog-memo.server";
import { productSummaryColumns, shownInStore, storeProductColumns } from "./product-columns.server";
import { products } from "~/db/schema";
import { cleanText } from "~/utils/request-text";
import { isBrandKey } from "./brands";
import { parseProductKey } from "./product";
import { likePattern, rankingPatterns, searchWords, TYPEAHEAD_LIMIT, typeaheadScore } from "./search";
import type { ProductSummary, StoreProduct } from "./store-product";
import { isVariationSibling } from "./variation-rule";
import { modelPrefix } from "./variations";

export const PAGE_SIZE = 100;
const RANDOM_SAMPLE = 4000;
export const ALL = "all";
export const HOME_CATEGORY = "Home";
export const ALL_CATEGORIES_LABEL = "All Categories";

export interface ProductPage {
  products: ProductSummary[];
  total: number;
  page: number;
  pageCount: number;
}

/** `all`, `Home` and an empty value mean no category filter (the spec shows Home as All Categories). */
export function isAllCategories(category: string): boolean {
  return category === "" || category === ALL || category === HOME_CATEGORY;
}

function listFilter(rawBrand: string, rawCategory: string): SQL | undefined {
  // Path params: a control character (a NUL would make PostgreSQL throw) matches nothing once removed.
  const [brand, category] = [cleanText(rawBrand), cleanText(rawCategory)];
  const conditions: SQL[] = [];
  if (brand !== ALL) conditions.push(eq(products.brand, brand));
  if (!isAllCategories(category)) conditions.push(arrayContains(products.categories, [category]));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The product list: brand and category may each be `all`; 100 per page, catalog order. */
export async function listProducts(
  db: Database,
  { brand, category, page }: { brand: string; category: string; page: number },
): Promise<ProductPage> {
  return pageOfProducts(db, listFilter(brand, category), page);
}

/**
 * One page (100; catalog order unless `order` says otherwise) of the products matching `where` that the
 * store shows (a hidden product is in no list), with the total; the page is clamped.
 */
async function pageOfProducts(
  db: Database,
  matching: SQL | undefined,
  page: number,
  order: SQL[] = [asc(products.position)],
): Promise<ProductPage> {
  const where = and(shownInStore, matching);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db
    .select(productSummaryColumns)
    .from(products)
    .where(where)
    .orderBy(...order)
    .limit(PAGE_SIZE)
    .offset((current - 1) * PAGE_SIZE);
  return { products: rows, total, page: current, pageCount };
}

export interface CategoryChoice {
  /** The path segment: `all` for Home. */
  value: string;
  label: string;
}

/** The categories of a brand (or of every brand), alphabetically, Home shown as All Categories first. */
export async function brandCategories(db: Database, brand: string): Promise<CategoryChoice[]> {
  // Only brands we carry: the answer is kept per brand, so a made-up brand must not add an entry (nor reach the database).
  if (brand !== ALL && !isBrandKey(brand)) return [];
  return cachedUntilCatalogReload(db, `brand-categories:${brand}`, () => queryBrandCategories(db, brand));
}

/**
 * Answers that are the same for every shopper and only change when the
 * catalog is reloaded (at start-up), such as category lists (unnesting every
 * product's categories is the slowest list query at scale): kept in the
 * server process per database until the next load. A failed query is not kept.
 */
const catalogCache = new WeakMap<Database, Map<string, Promise<unknown>>>();

export function cachedUntilCatalogReload<T>(db: Database, key: string, compute: () => Promise<T>): Promise<T> {
  const answers = catalogCache.get(db) ?? new Map<string, Promise<unknown>>();
  catalogCache.set(db, answers);
  const cached = answers.get(key) as Promise<T> | undefined;
  if (cached) return cached;
  const answer = compute();
  answers.set(key, answer);
  answer.catch(() => answers.delete(key));
  return answer;
}

export function forgetCatalogCaches(db: Database) {
  catalogCache.delete(db);
  forgetCatalogMemo(db);
}

async function queryBrandCategories(db: Database, brand: string): Promise<CategoryChoice[]> {
  const rows = await db
    .selectDistinct({ name: sql<string>`unnest(${products.categories})`.as("name") })
    .from(products)
    .where(and(shownInStore, brand === ALL ? undefined : eq(products.brand, brand)));
  const names = rows
    .map((row) => row.name)
    .filter((name) => name !== HOME_CATEGORY)
    .sort((a, b) => a.localeCompare(b, "en"));
  return [{ value: ALL, label: ALL_CATEGORIES_LABEL }, ...names.map((name) => ({ value: name, label: name }))];
}

/** The key and Id of every product the store shows, in catalog order (for the sitemap). */
export async function allProductKeys(db: Database): Promise<Array<{ key: string; id: string }>> {
  return db.select({ key: products.key, id: products.sourceId }).from(products).where(shownInStore).orderBy(asc(products.position));
}

/**
 * A product the store shows, by its `{brand}-{Id}` key, or null (also for one the merchant hid: its page is
 * a 404, the cart refuses it, the chat does not name it).
 */
export async function getProductByKey(db: Database, key: string): Promise<StoreProduct | null> {
  if (!parseProductKey(key)) return null;
  const [row] = await db
    .select(storeProductColumns)
    .from(products)
    .where(and(eq(products.key, key), shownInStore));
  return row ?? null;
}

/**
 * A product by its key whether the store shows it or not: for what still names a hidden product (its
 * images, which carts and orders show). Never for a page that offers it.
 */
export async function anyProductByKey(db: Database, key: string): Promise<StoreProduct | null> {
  if (!parseProductKey(key)) return null;
  const [row] = await db.select(storeProductColumns).from(products).where(eq(products.key, key));
  return row ?? null;
}

export async function getProductById(db: Database, id: string): Promise<StoreProduct | null> {
  const [row] = await db
    .select(storeProductColumns)
    .from(products)
    .where(and(eq(products.sourceId, id), shownInStore));
  return row ?? null;
}

/** Products sharing any of the given categories other than Home, in random order. */
export async function relatedProducts(
  db: Database,
  { categories, excludeKey, limit }: { categories: readonly string[]; excludeKey?: string; limit: number },
): Promise<ProductSummary[]> {
  const shared = categories.filter((name) => name !== HOME_CATEGORY);
  if (shared.length === 0 || limit <= 0) return [];
  return db
    .select(productSummaryColumns)
    .from(products)
    .where(and(shownInStore, arrayOverlaps(products.categories, shared), excludeKey ? ne(products.key, excludeKey) : undefined))
    .orderBy(sql`random()`)
    .limit(limit);
}

/** One random product of each brand, in random order. */
export async function randomProductPerBrand(db: Database): Promise<ProductSummary[]> {
  const perBrand = db
    .selectDistinctOn([products.brand], productSummaryColumns)
    .from(products)
    .where(shownInStore)
    .orderBy(products.brand, sql`random()`)
    .as("per_brand");
  return db.select().from(perBrand).orderBy(sql`random()`);
}

/**
 * `count` random products picked brand by brand: each round takes one random
 * product per brand, so every brand shows up before any brand shows twice.
 */
export async function randomProducts(db: Database, wanted: number): Promise<ProductSummary[]> {
  // Rank a random sample of about RANDOM_SAMPLE rows, not the whole table: at
  // 100,000 products, sorting every row by (brand, random()) took 250 ms.
  const [{ total }] = await db.select({ total: count() }).from(products).where(shownInStore);
  const fraction = Math.min(1, RANDOM_SAMPLE / Math.max(1, total));
  const ranked = db
    .select({
      ...productSummaryColumns,
      round: sql<number>`row_number() over (partition by ${products.brand} order by random())`.as("round"),
    })
    .from(products)
    .where(and(shownInStore, fraction < 1 ? sql`random() < ${fraction}` : undefined))
    .as("ranked");
  const rows = await db.select().from(ranked).orderBy(ranked.round, sql`random()`).limit(wanted);
  return rows.map(({ round: _round, ...product }) => product);
}

function allWordsCondition(words: readonly string[]): SQL | undefined {
  return and(...words.map((word) => ilike(products.title, likePattern(word))));
}

/** A product whose model number is one of the words (the expression of products_model_lower_idx). */
function modelIsOneOf(words: readonly string[]): SQL {
  return inArray(sql`lower(${products.model})`, [...words]);
}

/** What the searches match: every word in the title (the spec's rule), or the model number typed. */
function searchCondition(words: readonly string[]): SQL | undefined {
  return or(allWordsCondition(words), modelIsOneOf(words));
}

/**
 * Best first (search.ts): the model number typed, then the spec's score (more words whole), then the
 * words as one phrase, then the shorter title, then catalog order. Reads `title_words`, stored with
 * each row, so no title is parsed at query time.
 */
function relevanceOrder(words: readonly string[], options: { lastWordIsPrefix: boolean }): SQL[] {
  const patterns = rankingPatterns(words, options);
  // A query of punctuation alone has no words to rank by (and a bare `0` in ORDER BY would name a column).
  const byWords = patterns
    ? [
        sql`${sql.join(
          patterns.wholeWords.map((pattern) => sql`(case when ${like(products.titleWords, pattern)} then 1 else 0 end)`),
          sql` + `,
        )} desc`,
        sql`case when ${like(products.titleWords, patterns.phrase)} then 0 else 1 end`,
      ]
    : [];
  return [sql`case when ${modelIsOneOf(words)} then 0 else 1 end`, ...byWords, sql`length(${products.title})`, asc(products.position)];
}

/** Results page: every word contained in the title, case-insensitively (or the model number); best match first. */
export async function searchProducts(
  db: Database,
  text: string,
  { page = 1 }: { page?: number } = {},
): Promise<ProductPage> {
  const words = searchWords(text);
  if (words.length === 0) return { products: [], total: 0, page: 1, pageCount: 1 };
  return pageOfProducts(db, searchCondition(words), page, relevanceOrder(words, { lastWordIsPrefix: false }));
}

const TYPEAHEAD_CANDIDATES = 200;

/**
 * The search dropdown: at most 5 products, best first as on the results page, the last word read as
 * the start of a word (the shopper is still typing). Ranking every match of a common word ("grill"
 * holds half of 100,000 products) on each keystroke is too slow, so only candidates are ranked: the
 * model number typed, and up to 200 titles holding every word whole, and 200 holding the words as a
 * phrase (whichever the scan meets first: a LIMIT without ORDER BY stops as soon as it has them, where
 * "first in catalog order" made the database sort every match of a common word). Only when those
 * give fewer than five come the titles merely containing every word, then titles holding some words.
 */
export async function typeahead(db: Database, text: string): Promise<Array<{ product: ProductSummary; score: number }>> {
  const words = searchWords(text).slice(0, 8);
  if (words.length === 0) return [];
  const options = { lastWordIsPrefix: true };
  const titleMatch = allWordsCondition(words);
  const patterns = rankingPatterns(words, options);
  const first = (condition: SQL | undefined) =>
    db.select({ key: products.key }).from(products).where(and(shownInStore, condition)).limit(TYPEAHEAD_CANDIDATES);
  const bestOf = (candidates: SQLWrapper, exclude: readonly string[]) =>
    db
      .select(productSummaryColumns)
      .from(products)
      .where(and(inArray(products.key, candidates), exclude.length > 0 ? notInArray(products.key, [...exclude]) : undefined))
      .orderBy(...relevanceOrder(words, options))
      .limit(TYPEAHEAD_LIMIT);

  const found: ProductSummary[] = await (patterns
    ? bestOf(
        union(
          first(modelIsOneOf(words)),
          first(and(titleMatch, ...patterns.wholeWords.map((pattern) => like(products.titleWords, pattern)))),
          first(and(titleMatch, like(products.titleWords, patterns.phrase))),
        ),
        [],
      )
    : bestOf(first(modelIsOneOf(words)), []));
  if (found.length < TYPEAHEAD_LIMIT) {
    found.push(...(await bestOf(first(titleMatch), found.map((product) => product.key))));
  }
  const scored = found.slice(0, TYPEAHEAD_LIMIT).map((product) => ({ product, score: typeaheadScore(product.title, words) }));
  if (scored.length < TYPEAHEAD_LIMIT && words.length > 1) {
    const seen = new Set(scored.map(({ product }) => product.key));
    const partial = await db
      .select(productSummaryColumns)
      .from(products)
      .where(and(shownInStore, or(...words.map((word) => ilike(products.title, likePattern(word))))))
      .orderBy(asc(products.position))
      .limit(TYPEAHEAD_CANDIDATES);
    const byScore = partial
      .filter((product) => !seen.has(product.key))
      .map((product) => ({ product, score: typeaheadScore(product.title, words) }))
      .sort((a, b) => b.score - a.score);
    scored.push(...byScore.slice(0, TYPEAHEAD_LIMIT - scored.length));
  }
  return scored;
}

/** Same brand, same model prefix, other models: the products a variation dropdown can move to. */
export async function variationSiblings(
  db: Database,
  product: Pick<StoreProduct, "brand" | "model" | "key" | "id" | "title" | "categories">,
): Promise<StoreProduct[]> {
  const prefix = modelPrefix(product.brand, product.model);
  if (!prefix) return [];
  const rows = await db
    .select(storeProductColumns)
    .from(products)
    .where(
      and(
        shownInStore,
        eq(products.brand, product.brand),
        ne(products.key, product.key),
        or(eq(products.model, prefix), ilike(products.model, `${prefix.replace(/[\\%_]/g, "\\$&")}-%`)),
      ),
    )
    .orderBy(asc(products.position))
    .limit(60);
  return rows.filter((row) => isVariationSibling(product, row));
}
