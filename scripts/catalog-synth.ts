/**
 * Synthetic catalog for benchmarks: multiplies the real catalog
 * (catalog/{brand}.json) to --count products in a separate database.
 *
 *   npm run catalog:synth -- [--count 100000] [--database-url URL | --pglite-dir DIR] [--batch 1000] [--seed 1]
 *
 * Default target: the PGlite directory ./data/pglite-synth. It never writes
 * to the store's own PGlite directory (PGLITE_DIR, ./data/pglite), and it
 * never uses DATABASE_URL by itself: a PostgreSQL target has to be named with
 * --database-url (e.g. postgres://postgres@127.0.0.1:5432/store_synth).
 *
 * Copy 0 of every product is the real record unchanged (real URLs keep
 * working); copy k >= 1 gets Id `${Id}-S${k}`, key `${brand}-${Id}-S${k}`,
 * model `S${k}${Model}` (so each copy forms its own variation family of the
 * real size), a title with a series and size word appended, a price within
 * +-5%, the same categories, specifications, description and images. Rows are
 * laid out brand by brand like the real load, `position` increasing.
 */
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { readCatalogFiles } from "../app/catalog/catalog-files.server";
import { markCatalogLoaded, productRow } from "../app/catalog/load.server";
import type { CatalogProduct } from "../app/catalog/product";
import { DatabaseInUseError, openDatabase } from "../app/db/database.server";
import { products, storeSettings } from "../app/db/schema";
import { HELP_OPTION, TARGET_OPTIONS, UsageError, intOption, parseCli, redactUrl, resolveTarget } from "./lib/cli";
import { rawQuery } from "./lib/db-raw";

const USAGE = `Usage: npm run catalog:synth -- [--count N] [--database-url URL | --pglite-dir DIR] [--batch N] [--seed N]
  --count N          products to create (default 100000)
  --database-url URL PostgreSQL database to fill (its products are replaced)
  --pglite-dir DIR   PGlite directory to fill (default ./data/pglite-synth)
  --batch N          rows per INSERT (default 1000)
  --seed N           seed for the price variation (default 1)
  --serve            record the copies as the store's loaded catalogue, so a store started on
                     this database serves them (the benchmark's pages on 100,000 products)`;

/** Series and size words appended to copies, so titles stay distinct and searchable. */
const SERIES = [
  "Classic",
  "Pro",
  "Elite",
  "Signature",
  "Heritage",
  "Summit",
  "Coastal",
  "Urban",
  "Ranch",
  "Harbor",
  "Alpine",
  "Prairie",
  "Canyon",
] as const;
const SIZES = ["Compact", "Standard", "Grand", "Max"] as const;

type ProductRow = typeof products.$inferInsert;

/** Deterministic 32-bit PRNG (mulberry32). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function synthRow(record: CatalogProduct, copy: number, position: number, random: () => number): ProductRow {
  const base = productRow(record, position);
  if (copy === 0) return base;
  const id = `${record.Id}-S${copy}`;
  const model = record.Model.trim() === "" ? record.Model : `S${copy}${record.Model}`;
  const title = record.Model.trim() === "" ? record.Title : record.Title.replace(new RegExp(escapeRegExp(record.Model), "g"), model);
  const series = SERIES[(copy - 1) % SERIES.length];
  const size = SIZES[Math.floor((copy - 1) / SERIES.length) % SIZES.length];
  const factor = 0.95 + random() * 0.1;
  return {
    ...base,
    key: `${record.brand}-${id}`,
    sourceId: id,
    model,
    title: `${title} ${series} ${size}`,
    priceCents: Math.max(1, Math.round(base.priceCents * factor)),
  };
}

/**
 * Every row, brand by brand (the real load order), each brand's copies in
 * rounds: product i of the catalog gets floor(count/n) copies, plus one
 * for the first count mod n products.
 */
function* synthRows(records: readonly CatalogProduct[], count: number, seed: number): Generator<ProductRow> {
  const random = prng(seed);
  const perProduct = Math.floor(count / records.length);
  const extra = count % records.length;
  const copiesOf = (index: number) => perProduct + (index < extra ? 1 : 0);
  const byBrand = new Map<string, number[]>();
  records.forEach((record, index) => {
    const list = byBrand.get(record.brand) ?? [];
    list.push(index);
    byBrand.set(record.brand, list);
  });
  let position = 0;
  for (const indexes of byBrand.values()) {
    const rounds = Math.max(0, ...indexes.map(copiesOf));
    for (let copy = 0; copy < rounds; copy++) {
      for (const index of indexes) {
        if (copy < copiesOf(index)) yield synthRow(records[index], copy, position++, random);
      }
    }
  }
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const flags = parseCli(process.argv.slice(2), {
    ...HELP_OPTION,
    ...TARGET_OPTIONS,
    count: { type: "string" },
    batch: { type: "string" },
    seed: { type: "string" },
    serve: { type: "boolean" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const count = intOption(flags.count, "count", 100_000);
  const batchSize = intOption(flags.batch, "batch", 1000);
  const seed = intOption(flags.seed, "seed", 1, 0);
  const { target, label, isStoreDatabase } = resolveTarget(flags);

  if (isStoreDatabase && "pgliteDir" in target) {
    console.error(
      `Refusing to write a synthetic catalog into the store's own PGlite directory (${target.pgliteDir}).\n` +
        "Use the default ./data/pglite-synth or another --pglite-dir.",
    );
    return 1;
  }
  if (isStoreDatabase && flags.serve) {
    console.error("Refusing --serve on the store's own database: it would serve synthetic products to shoppers.");
    return 1;
  }
  if (isStoreDatabase && "url" in target) {
    console.warn(
      `WARNING: ${redactUrl(target.url)} is the store's DATABASE_URL; its products are replaced because --database-url named it.\n` +
        "The store reloads its real catalog on its next start (the catalog hash is cleared).",
    );
  }

  const files = readCatalogFiles();
  if (files.products.length === 0) {
    console.error("The real catalog (catalog/*.json) is empty: nothing to multiply.");
    return 1;
  }
  console.log(`Synthetic catalog: ${count.toLocaleString("en-US")} products from ${files.products.length} real ones -> ${label}`);

  const started = performance.now();
  const handle = await openDatabase(target);
  try {
    await handle.migrate();
    const opened = performance.now();
    console.log(`Opened and migrated in ${formatDuration(opened - started)}.`);

    await handle.db.execute(sql`truncate table ${products}`);
    // The store compares this hash with its files at start-up: cleared, a store
    // pointed at this database reloads the real catalog instead of serving copies.
    await handle.db.delete(storeSettings).where(eq(storeSettings.key, "catalog_hash"));

    const insertStart = performance.now();
    let inserted = 0;
    let batch: ProductRow[] = [];
    let lastReport = insertStart;
    const flush = async () => {
      if (batch.length === 0) return;
      await handle.db.insert(products).values(batch);
      inserted += batch.length;
      batch = [];
      const now = performance.now();
      if (now - lastReport > 2000 || inserted === count) {
        lastReport = now;
        const rate = inserted / ((now - insertStart) / 1000);
        const pct = ((inserted / count) * 100).toFixed(0).padStart(3);
        console.log(`  ${pct}%  ${inserted.toLocaleString("en-US").padStart(9)} rows  ${rate.toFixed(0)} rows/s`);
      }
    };
    for (const row of synthRows(files.products, count, seed)) {
      batch.push(row);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    const insertMs = performance.now() - insertStart;

    const analyzeStart = performance.now();
    await handle.db.execute(sql`vacuum analyze ${products}`);
    const analyzeMs = performance.now() - analyzeStart;

    if (flags.serve) await markCatalogLoaded(handle.db, files);
    const [{ total }] = await rawQuery(handle, "select count(*)::int as total from products");
    console.log(
      `Inserted ${inserted.toLocaleString("en-US")} rows in ${formatDuration(insertMs)} ` +
        `(${(inserted / (insertMs / 1000)).toFixed(0)} rows/s); vacuum analyze ${formatDuration(analyzeMs)}; ` +
        `table now holds ${Number(total).toLocaleString("en-US")} products. Total ${formatDuration(performance.now() - started)}.`,
    );
    console.log(
      `Next: npm run bench${"url" in target ? ` -- --database-url ${redactUrl(target.url)}` : target.pgliteDir === "./data/pglite-synth" ? "" : ` -- --pglite-dir ${target.pgliteDir}`}`,
    );
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof DatabaseInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    console.error(`catalog:synth failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
