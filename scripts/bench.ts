/**
 * The store's one performance report:
 *   - scale: catalog query timings on the 100,000-product synthetic catalog, with plans;
 *   - bundle: the gzipped JavaScript each storefront route ships on a first visit;
 *   - server: start time (first start loading the catalogue, then on the loaded database),
 *     RSS after warm-up and after 10,000 requests;
 *   - http: autocannon at 10 and 50 connections per page, beside a bare Node server
 *     answering the same bytes (the ceiling);
 *   - lighthouse: Lighthouse mobile on seven pages, median of 3, straight to the store
 *     (HTTP/1.1) and through deploy/Caddyfile (TLS, HTTP/2) when Caddy is installed;
 *   - checkout: orders per second through the offline test payment page;
 *   - last-units: 100 shoppers at once after the last 3 units of one grill (a fresh store with 3 of each):
 *     how long until each has her answer, and exactly 3 sold;
 *   - reconcile: one sweep of the payment reconciler over 200 due checks (no build, no server);
 *   - metrics: req/s and p99 of rendered pages with METRICS_PORT=off and with the metrics on,
 *     the two processes measured in turn (budget: the metrics cost at most 3%);
 *   - scale-http: the catalogue pages, typeahead, /compare and /fit over HTTP on the
 *     100,000-product synthetic catalogue (PostgreSQL only).
 * The production build runs on a fresh embedded database and, with
 * BENCH_DATABASE_URL (or --server-database-url), on a throwaway PostgreSQL database.
 *
 *   npm run bench [-- --only http,lighthouse] [--runs N] [--duration S] [--lighthouse-runs N]
 *                    [--database-url URL | --pglite-dir DIR] [--iterations N] [--warmup N]
 *                    [--skip-db] [--skip-bundle] [--build] [--plans full]
 *
 * Writes bench/results/latest.json and latest.md and a dated copy of each.
 * A measurement, not a test: it exits 0 whatever the numbers are (1 only when
 * it could not measure, e.g. the synthetic database could not be made) and
 * prints "OVER BUDGET" when a figure misses its budget.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import {
  brandCategories,
  getProductByKey,
  listProducts,
  randomProducts,
  relatedProducts,
  searchProducts,
  typeahead,
  variationSiblings,
  PAGE_SIZE,
} from "../app/catalog/queries.server";
import type { StoreProduct } from "../app/catalog/store-product";
import { modelPrefix } from "../app/catalog/variations";
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from "../app/db/database.server";
import {
  BUDGET,
  BUDGET_EXCEPTIONS,
  budgetMark,
  describeLargestChunks,
  formatBundleTable,
  formatHeavyPackage,
  heavyPackages,
  formatTable,
  loadClientBuild,
  measureStorefront,
  missingStorefrontRoutes,
} from "./lib/bundle-size";
import {
  DEFAULT_SYNTH_PGLITE_DIR,
  HELP_OPTION,
  TARGET_OPTIONS,
  UsageError,
  intOption,
  parseCli,
  pgliteDirExists,
  resolveTarget,
  type TargetFlags,
} from "./lib/cli";
import { captureQueries, rawQuery } from "./lib/db-raw";
import { benchLastUnits, benchServer, benchSyntheticCatalogue, formatReport, newReport, type Report } from "./lib/bench-report";
import { pgliteTarget, postgresTarget } from "./lib/bench-server";
import { benchReconcile } from "./lib/bench-reconcile";
import { benchMetrics } from "./lib/bench-metrics";
import { parseFitSearch } from "../app/guides/fit";
import { findByCutout } from "../app/guides/fit.server";
import { compareProducts } from "../app/guides/compare.server";

const ALL_PARTS = [
  "scale",
  "bundle",
  "server",
  "http",
  "lighthouse",
  "checkout",
  "last-units",
  "reconcile",
  "metrics",
  "scale-http",
] as const;

const USAGE = `Usage: npm run bench -- [--only PARTS] [--runs N] [--duration S] [--lighthouse-runs N] [--shoppers N]
                        [--server-database-url URL] [--no-pglite]
                        [--database-url URL | --pglite-dir DIR] [--iterations N] [--warmup N]
                        [--skip-db] [--skip-bundle] [--build] [--plans full]
  --only PARTS        comma-separated subset of ${ALL_PARTS.join(",")} (default: all)
  --runs N            autocannon runs per page and connection count, and per side in metrics (default 1)
  --duration S        seconds per autocannon run (default 5)
  --lighthouse-runs N Lighthouse runs per page (default 3)
  --shoppers N        checkouts in the checkout part (default 100, 10 at a time)
  --server-database-url URL  PostgreSQL server for the server parts and reconcile (default BENCH_DATABASE_URL);
                      the bench creates a throwaway database on it and drops it at the end
  --no-pglite         server parts on PostgreSQL only
  --database-url URL  PostgreSQL database filled by catalog:synth
  --pglite-dir DIR    PGlite directory filled by catalog:synth (default ./data/pglite-synth)
  --iterations N      timed runs per query (default 30)
  --warmup N          untimed runs per query first (default 3)
  --skip-db           same as leaving "scale" out of --only
  --skip-bundle       same as leaving "bundle" out of --only
  --build             run \`npx remix build\` first even when a build exists
  --plans full        print every EXPLAIN plan in full, not only those of slow queries`;

/** The bundle table's header names the routes still held to what they load (none once every route fits). */
function exceptionsNote(): string {
  const held = Object.keys(BUDGET_EXCEPTIONS);
  return held.length > 0 ? `; held to what they load now: ${held.join(", ")}` : "";
}

/** A query whose p95 is above this gets its full plan printed. */
const SLOW_MS = 50;

interface Case {
  name: string;
  /** Runs the query once for iteration i; returns how many rows it produced (for the table). */
  run: (i: number) => Promise<number>;
  /** EXPLAIN the statements of this case. */
  explain?: boolean;
}

interface Timing {
  name: string;
  runs: number;
  rows: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

function percentile(sorted: readonly number[], p: number): number {
  // Nearest rank.
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** A very slow query stops after this long (with at least MIN_SAMPLES runs), so one bad query cannot stall the run. */
const MAX_MS_PER_CASE = 15_000;
const MIN_SAMPLES = 5;

async function timeCase(c: Case, iterations: number, warmup: number): Promise<Timing> {
  let rows = 0;
  for (let i = 0; i < warmup; i++) rows = await c.run(i);
  const samples: number[] = [];
  const began = performance.now();
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    rows = await c.run(warmup + i);
    samples.push(performance.now() - start);
    if (samples.length >= MIN_SAMPLES && performance.now() - began > MAX_MS_PER_CASE) break;
  }
  samples.sort((a, b) => a - b);
  return {
    name: c.name,
    runs: samples.length,
    rows,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: samples[samples.length - 1],
    mean: samples.reduce((sum, x) => sum + x, 0) / samples.length,
  };
}

/** Realistic inputs, taken from the data so they work on any catalog size. */
async function pickInputs(handle: DatabaseHandle) {
  const one = async <T>(sql: string, params: unknown[] = []) => (await rawQuery(handle, sql, params))[0] as T | undefined;
  const biggestBrand = await one<{ brand: string; n: number }>(
    "select brand, count(*)::int as n from products group by brand order by n desc, brand limit 1",
  );
  if (!biggestBrand) throw new Error("no products");
  const categories = (await rawQuery(
    handle,
    "select c as name, count(*)::int as n from products, unnest(categories) c where c <> 'Home' group by c order by n desc, c",
  )) as Array<{ name: string; n: number }>;
  const commonCategory = categories[0]?.name ?? "Home";
  // A narrow category: the smallest one holding at least 0.5% of the products, like most leaf categories.
  const total = (await one<{ n: number }>("select count(*)::int as n from products"))?.n ?? 0;
  const rareCategory =
    [...categories].reverse().find((c) => c.n >= total * 0.005)?.name ?? categories[categories.length - 1]?.name ?? "Home";
  const brandCategory = await one<{ name: string }>(
    "select c as name from products, unnest(categories) c where brand = $1 and c <> 'Home' group by c order by count(*) desc, c limit 1",
    [biggestBrand.brand],
  );
  // Product pages are spread over the whole table: a fixed sample of keys, visited in turn.
  const sampleKeys = ((await rawQuery(handle, "select key from products order by md5(key) limit 200")) as Array<{ key: string }>).map(
    (row) => row.key,
  );
  const sampleProducts: StoreProduct[] = [];
  for (const key of sampleKeys.slice(0, 50)) {
    const product = await getProductByKey(handle.db, key);
    if (product) sampleProducts.push(product);
  }
  // Variation pages: products of brands with variation families whose family has other members.
  const variationCandidates = (
    (await rawQuery(
      handle,
      "select key from products where brand in ('blaze', 'alfresco', 'fire_magic', 'napoleon', 'twin_eagles', 'aog') and model <> '' order by md5(key) limit 400",
    )) as Array<{ key: string }>
  ).map((row) => row.key);
  const variationProducts: StoreProduct[] = [];
  for (const key of variationCandidates) {
    if (variationProducts.length >= 30) break;
    const product = await getProductByKey(handle.db, key);
    if (!product || !modelPrefix(product.brand, product.model)) continue;
    if ((await variationSiblings(handle.db, product)).length > 0) variationProducts.push(product);
  }
  return {
    total,
    brand: biggestBrand.brand,
    commonCategory,
    rareCategory,
    brandCategory: brandCategory?.name ?? commonCategory,
    sampleKeys,
    sampleProducts,
    variationProducts: variationProducts.length > 0 ? variationProducts : sampleProducts,
  };
}

// ---------------------------------------------------------------- EXPLAIN

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/** One line: index used or not, scan types, rows filtered away, execution time. */
function summarisePlan(plan: { Plan: PlanNode; "Execution Time"?: number }): { line: string; seqScan: boolean } {
  const indexes = new Set<string>();
  const scans: string[] = [];
  let removed = 0;
  let seqScan = false;
  walk(plan.Plan, (node) => {
    if (node["Index Name"]) indexes.add(node["Index Name"]);
    if (/Scan/.test(node["Node Type"]) && (node["Relation Name"] === "products" || node["Index Name"])) {
      scans.push(node["Index Name"] ? `${node["Node Type"]} (${node["Index Name"]})` : node["Node Type"]);
    }
    if (node["Node Type"] === "Seq Scan") seqScan = true;
    removed += node["Rows Removed by Filter"] ?? 0;
  });
  const verdict = indexes.size > 0 ? (seqScan ? "index + seq scan" : "index used") : "NO INDEX";
  const parts = [
    verdict.padEnd(16),
    [...new Set(scans)].join(" + ") || plan.Plan["Node Type"],
    removed > 0 ? `${removed >= 1000 ? "FILTERS " : ""}${removed} rows removed by filter` : "",
    plan["Execution Time"] !== undefined ? `one run ${plan["Execution Time"].toFixed(1)} ms` : "",
  ];
  return { line: parts.filter(Boolean).join("; "), seqScan };
}

async function explainCase(
  handle: DatabaseHandle,
  c: Case,
  { full, slow, width }: { full: boolean; slow: boolean; width: number },
): Promise<string[]> {
  const statements = await captureQueries(handle, () => c.run(0));
  const lines: string[] = [];
  for (const statement of statements) {
    const kind = /^select count\(/i.test(statement.sql) ? "count" : "rows";
    const label = statements.length > 1 ? `${c.name} [${kind}]` : c.name;
    const [row] = await rawQuery(handle, `explain (analyze, buffers off, format json) ${statement.sql}`, statement.params);
    const json = Object.values(row)[0];
    const parsed = (typeof json === "string" ? JSON.parse(json) : json) as Array<{ Plan: PlanNode; "Execution Time"?: number }>;
    const { line } = summarisePlan(parsed[0]);
    lines.push(`  ${label.padEnd(width)}  ${line}`);
    if (full || slow) {
      const text = await rawQuery(handle, `explain (analyze, buffers off, costs off, timing off) ${statement.sql}`, statement.params);
      lines.push(`    SQL: ${statement.sql}`);
      lines.push(`    params: ${JSON.stringify(statement.params)}`);
      for (const planRow of text) lines.push(`      ${String(Object.values(planRow)[0])}`);
    }
  }
  return lines;
}

// ---------------------------------------------------------------- database part

async function benchDatabase(targetFlags: TargetFlags, iterations: number, warmup: number, fullPlans: boolean): Promise<boolean> {
  const { target, label } = resolveTarget(targetFlags);
  if ("pgliteDir" in target && !pgliteDirExists(target.pgliteDir)) {
    const flag = target.pgliteDir === DEFAULT_SYNTH_PGLITE_DIR ? "" : ` -- --pglite-dir ${target.pgliteDir}`;
    console.error(`No database in ${target.pgliteDir}. Run \`npm run catalog:synth${flag}\` first (about 35 s for 100k products).`);
    return false;
  }
  console.log(`\n== Catalog queries: ${label}`);
  const openStart = performance.now();
  const handle = await openDatabase(target);
  try {
    // Applies migrations added since the synthetic catalog was made (new indexes, say).
    await handle.migrate();
    const [{ n }] = (await rawQuery(handle, "select count(*)::int as n from products")) as Array<{ n: number }>;
    if (n === 0) {
      const flag =
        "url" in target
          ? " -- --database-url URL"
          : target.pgliteDir === DEFAULT_SYNTH_PGLITE_DIR
            ? ""
            : ` -- --pglite-dir ${target.pgliteDir}`;
      console.error(`The products table of ${label} is empty. Run \`npm run catalog:synth${flag}\` first.`);
      return false;
    }
    const [{ version }] = (await rawQuery(handle, "select version()")) as Array<{ version: string }>;
    console.log(
      `${n.toLocaleString("en-US")} products; ${version.split(",")[0]}; opened in ${(performance.now() - openStart).toFixed(0)} ms; ` +
        `${iterations} timed runs per query after ${warmup} warm-up runs; ` +
        `load average ${loadavg()
          .map((x) => x.toFixed(2))
          .join(" ")} on ${cpus().length} cores.`,
    );
    const inputs = await pickInputs(handle);
    const db = handle.db;
    const lastPage = Math.max(1, Math.ceil(inputs.total / PAGE_SIZE));
    const middlePage = Math.max(1, Math.floor(lastPage / 2));
    const at = <T>(list: readonly T[], i: number) => list[i % list.length];

    const cases: Case[] = [
      {
        name: "listProducts all/all p1",
        explain: true,
        run: async () => (await listProducts(db, { brand: "all", category: "all", page: 1 })).products.length,
      },
      {
        name: `listProducts all/all p${middlePage}`,
        explain: true,
        run: async () => (await listProducts(db, { brand: "all", category: "all", page: middlePage })).products.length,
      },
      {
        name: `listProducts all/all p${lastPage} (last)`,
        explain: true,
        run: async () => (await listProducts(db, { brand: "all", category: "all", page: lastPage })).products.length,
      },
      {
        name: `listProducts ${inputs.brand}/all p1`,
        explain: true,
        run: async () => (await listProducts(db, { brand: inputs.brand, category: "all", page: 1 })).total,
      },
      {
        name: `listProducts all/"${inputs.commonCategory}" p1`,
        explain: true,
        run: async () => (await listProducts(db, { brand: "all", category: inputs.commonCategory, page: 1 })).total,
      },
      {
        name: `listProducts all/"${inputs.rareCategory}" p1`,
        explain: true,
        run: async () => (await listProducts(db, { brand: "all", category: inputs.rareCategory, page: 1 })).total,
      },
      {
        name: `listProducts ${inputs.brand}/"${inputs.brandCategory}" p1`,
        explain: true,
        run: async () => (await listProducts(db, { brand: inputs.brand, category: inputs.brandCategory, page: 1 })).total,
      },
      { name: "brandCategories all", explain: true, run: async () => (await brandCategories(db, "all")).length },
      { name: `brandCategories ${inputs.brand}`, explain: true, run: async () => (await brandCategories(db, inputs.brand)).length },
      { name: "getProductByKey", explain: true, run: async (i) => ((await getProductByKey(db, at(inputs.sampleKeys, i))) ? 1 : 0) },
      {
        name: "relatedProducts (last 2 categories, 15)",
        explain: true,
        run: async (i) => {
          const product = at(inputs.sampleProducts, i);
          const categories = product.categories.filter((name) => name !== "Home").slice(-2);
          return (await relatedProducts(db, { categories, excludeKey: product.key, limit: 15 })).length;
        },
      },
      { name: "randomProducts(30)", explain: true, run: async () => (await randomProducts(db, 30)).length },
      { name: 'searchProducts "grill"', explain: true, run: async () => (await searchProducts(db, "grill")).total },
      { name: 'searchProducts "natural gas grill"', explain: true, run: async () => (await searchProducts(db, "natural gas grill")).total },
      { name: 'searchProducts "kamado"', explain: true, run: async () => (await searchProducts(db, "kamado")).total },
      { name: 'typeahead "griddl"', explain: true, run: async () => (await typeahead(db, "griddl")).length },
      { name: 'typeahead "blaze rotis"', explain: true, run: async () => (await typeahead(db, "blaze rotis")).length },
      { name: 'typeahead "kamad"', explain: true, run: async () => (await typeahead(db, "kamad")).length },
      {
        name: "findByCutout 30 3/4 x 21 1/4 in (/fit)",
        explain: true,
        run: async () => (await findByCutout(db, parseFitSearch(new URLSearchParams("width=30.75&depth=21.25&height=10")).query)).total,
      },
      {
        name: "compareProducts(4) (/compare)",
        explain: true,
        run: async (i) =>
          (
            await compareProducts(
              db,
              [0, 1, 2, 3].map((n) => at(inputs.sampleKeys, i * 4 + n)),
            )
          ).length,
      },
      { name: "variationSiblings", explain: true, run: async (i) => (await variationSiblings(db, at(inputs.variationProducts, i))).length },
    ];

    const timings: Timing[] = [];
    for (const c of cases) {
      const timing = await timeCase(c, iterations, warmup);
      timings.push(timing);
      process.stdout.write(".");
    }
    process.stdout.write("\n");
    console.log(
      formatTable(
        ["query", "rows", "runs", "p50 ms", "p95 ms", "max ms", ""],
        timings.map((t) => [
          t.name,
          String(t.rows),
          String(t.runs),
          t.p50.toFixed(2),
          t.p95.toFixed(2),
          t.max.toFixed(2),
          t.p95 > SLOW_MS ? "SLOW" : "",
        ]),
        [false, true, true, true, true, true, false],
      ),
    );
    console.log(
      `"rows": what the call returned (page size, total matches or list length). "runs": timed runs (a query stops after ` +
        `${MAX_MS_PER_CASE / 1000} s). SLOW: p95 above ${SLOW_MS} ms (full plan below). ` +
        `Load average now ${loadavg()
          .map((x) => x.toFixed(2))
          .join(" ")}: numbers taken under load are not comparable.`,
    );

    console.log("\n== Query plans (EXPLAIN ANALYZE of the statements each call sends)");
    const width = Math.max(...cases.map((c) => c.name.length)) + 8;
    for (const [index, c] of cases.entries()) {
      if (!c.explain) continue;
      const slow = timings[index].p95 > SLOW_MS;
      for (const line of await explainCase(handle, c, { full: fullPlans, slow, width })) console.log(line);
    }
    return true;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- bundle part

function benchBundles(forceBuild: boolean): boolean {
  const haveBuild = existsSync("build") && existsSync("public/build") && existsSync("build/metafile.js.json");
  let hasManifest = false;
  try {
    loadClientBuild();
    hasManifest = true;
  } catch {
    hasManifest = false;
  }
  if (forceBuild || !haveBuild || !hasManifest) {
    console.log("\n== Building (npx remix build)");
    execFileSync("npx", ["remix", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const build = loadClientBuild();
  console.log(
    `\n== First-visit JavaScript per storefront route (gzip -9 per file, KB = 1024 bytes, budget ${BUDGET.kb} KB in ${BUDGET.files} files${exceptionsNote()})\n` +
      `build ${build.manifestFile.replace(`${process.cwd()}/`, "")} of ${build.builtAt.toISOString()}; libraries found by ${
        build.detection === "metafile" ? "esbuild metafile" : "content markers (metafile missing or from another build)"
      }`,
  );
  const results = measureStorefront(build);
  console.log(formatBundleTable(results));
  const missing = missingStorefrontRoutes(build.manifest);
  if (missing.length > 0) console.log(`Not in this build (yet): ${missing.join(", ")}`);
  if (!results.some((r) => /checkout/i.test(r.routeId))) console.log("No checkout routes in this build (yet).");
  const over = results.filter((r) => r.overBudget);
  if (over.length > 0) {
    console.log(
      `OVER BUDGET: ${over.length} of ${results.length} storefront routes ship more than their budget: ` +
        over.map((r) => `${r.routeId} ${r.gzipKb.toFixed(1)} KB in ${r.chunks.length} files (${budgetMark(r)})`).join(", "),
    );
    const root = results.find((r) => r.routeId === "root");
    if (root?.overBudget) {
      console.log(`  root alone ships ${root.gzipKb.toFixed(1)} KB and every route loads it. Largest: ${describeLargestChunks(root)}`);
    }
    const rootPackages = new Set(root ? heavyPackages(build, root, 0).map((h) => h.pkg) : []);
    for (const r of over) {
      if (r === root) {
        const heavy = heavyPackages(build, r);
        if (heavy.length > 0) console.log(`  root: ${heavy.map(formatHeavyPackage).join("; ")}`);
        continue;
      }
      // Other routes: only what they add on top of root.
      const added = heavyPackages(build, r).filter((h) => !rootPackages.has(h.pkg));
      if (added.length > 0) console.log(`  ${r.routeId} adds: ${added.map(formatHeavyPackage).join("; ")}`);
      else if (!root?.overBudget) console.log(`  ${r.routeId}: largest ${describeLargestChunks(r)}`);
    }
  }
  for (const r of results.filter((r) => r.unexpectedLibraries.length > 0)) {
    console.log(
      `UNEXPECTED LIBRARY: ${r.routeId} loads ${r.unexpectedLibraries
        .map((lib) => `${lib} (${(r.libraries[lib] ?? []).join(", ")})`)
        .join("; ")} on a first visit`,
    );
  }
  if (over.length === 0) console.log(`All ${results.length} storefront routes are within their budget.`);
  return true;
}

/** Runs `work` with console.log also copied into the returned text (for the Markdown report). */
async function captured(work: () => Promise<boolean> | boolean): Promise<{ ok: boolean; text: string }> {
  const original = console.log;
  const lines: string[] = [];
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
    original(...args);
  };
  try {
    return { ok: await work(), text: lines.join("\n") };
  } finally {
    console.log = original;
  }
}

async function main(): Promise<number> {
  const flags = parseCli(process.argv.slice(2), {
    ...HELP_OPTION,
    ...TARGET_OPTIONS,
    iterations: { type: "string" },
    warmup: { type: "string" },
    "skip-db": { type: "boolean" },
    "skip-bundle": { type: "boolean" },
    build: { type: "boolean" },
    plans: { type: "string" },
    only: { type: "string" },
    runs: { type: "string" },
    duration: { type: "string" },
    "lighthouse-runs": { type: "string" },
    shoppers: { type: "string" },
    "server-database-url": { type: "string" },
    "no-pglite": { type: "boolean" },
  });
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const iterations = intOption(flags.iterations, "iterations", 30);
  const warmup = intOption(flags.warmup, "warmup", 3, 0);
  if (flags.plans !== undefined && flags.plans !== "full") throw new UsageError('--plans takes "full"');
  const parts = new Set<string>(flags.only ? flags.only.split(",").map((part) => part.trim()) : ALL_PARTS);
  for (const part of parts) {
    if (!(ALL_PARTS as readonly string[]).includes(part)) throw new UsageError(`--only takes ${ALL_PARTS.join(", ")} (got "${part}")`);
  }
  if (flags["skip-db"]) parts.delete("scale");
  if (flags["skip-bundle"]) parts.delete("bundle");
  resolveTarget(flags); // validates the target flags before any work
  const serverOptions = {
    parts,
    runs: intOption(flags.runs, "runs", 1),
    durationS: intOption(flags.duration, "duration", 5),
    lighthouseRuns: intOption(flags["lighthouse-runs"], "lighthouse-runs", 3),
    shoppers: intOption(flags.shoppers, "shoppers", 100),
    lastUnitShoppers: 100,
  };
  const serverUrl = flags["server-database-url"] ?? process.env.BENCH_DATABASE_URL;

  const report = newReport();
  let ok = true;
  const serverParts = ["server", "http", "lighthouse", "checkout"].some((part) => parts.has(part));
  const lastUnits = parts.has("last-units");
  // The server parts and the bundle table measure the production build: build it first (the app and build/server.js).
  if (serverParts || lastUnits || parts.has("bundle") || parts.has("scale-http") || parts.has("metrics")) {
    console.log("\n== Building the production server (npm run build)");
    execFileSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  if (parts.has("scale")) {
    const { target } = resolveTarget(flags);
    if ("pgliteDir" in target && !pgliteDirExists(target.pgliteDir)) {
      console.log(`\n== No synthetic catalogue in ${target.pgliteDir}: making it (npm run catalog:synth, about a minute)`);
      execFileSync("npm", ["run", "catalog:synth", "--", "--pglite-dir", target.pgliteDir], { stdio: "inherit" });
    }
    const result = await captured(() => benchDatabase(flags, iterations, warmup, flags.plans === "full"));
    ok = result.ok && ok;
    report.sections.push({ title: "Scale: catalog queries on the synthetic catalogue", text: result.text });
  }
  if (parts.has("bundle")) {
    const result = await captured(() => benchBundles(false));
    ok = result.ok && ok;
    report.sections.push({ title: "First-visit JavaScript per route", text: result.text });
  }
  if (parts.has("reconcile")) {
    const result = await captured(() => benchReconcile(serverUrl));
    ok = result.ok && ok;
    report.sections.push({ title: "Payment reconciler: 200 due checks", text: result.text });
  }
  if (parts.has("metrics")) {
    const result = await captured(() => benchMetrics({ runs: serverOptions.runs, durationS: serverOptions.durationS }));
    ok = result.ok && ok;
    report.sections.push({ title: "Request metrics: a render with METRICS_PORT=off and on", text: result.text });
  }
  if (serverParts) {
    const log = (line: string) => console.log(line);
    if (!flags["no-pglite"]) {
      report.servers.push(await benchServer(pgliteTarget(), { ...serverOptions, lighthouse: true }, log));
    }
    if (serverUrl) {
      // Lighthouse measures the browser's side: once, on the embedded database, unless that is skipped.
      const lighthouse = flags["no-pglite"] === true;
      report.servers.push(await benchServer(await postgresTarget(serverUrl), { ...serverOptions, lighthouse }, log));
    } else {
      report.notes.push(
        "No BENCH_DATABASE_URL: the server parts ran on the embedded database only; the HTTP and memory budgets are set for PostgreSQL.",
      );
    }
  }
  if (lastUnits) {
    const log = (line: string) => console.log(line);
    if (!flags["no-pglite"]) report.servers.push(await benchLastUnits(pgliteTarget(), serverOptions.lastUnitShoppers, log));
    if (serverUrl) report.servers.push(await benchLastUnits(await postgresTarget(serverUrl), serverOptions.lastUnitShoppers, log));
  }
  if (parts.has("scale-http")) {
    if (serverUrl) {
      const options = { products: 100_000, durationS: serverOptions.durationS, runs: serverOptions.runs };
      report.servers.push(await benchSyntheticCatalogue(await postgresTarget(serverUrl), options, (line) => console.log(line)));
    } else {
      report.notes.push("No BENCH_DATABASE_URL: the pages on the 100,000-product catalogue (scale-http) were not measured.");
    }
  }
  report.machine.loadAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  writeReport(report);
  return ok ? 0 : 1;
}

function writeReport(report: Report) {
  const dir = "bench/results";
  mkdirSync(dir, { recursive: true });
  const stamp = report.date.slice(0, 16).replace(/:/g, "");
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = formatReport(report);
  for (const name of ["latest", stamp]) {
    writeFileSync(`${dir}/${name}.json`, json);
    writeFileSync(`${dir}/${name}.md`, markdown);
  }
  console.log(`\nReport: ${dir}/latest.md and ${dir}/latest.json (copies: ${dir}/${stamp}.*)`);
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
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
