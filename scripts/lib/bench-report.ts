/**
 * The server parts of `npm run bench` (start, memory, http, lighthouse,
 * checkout) on one database, and the report they go into.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import postgres from "postgres";
import { measurePages, type BrowserPage, type LighthouseRow } from "./bench-browser";
import {
  cartCookie,
  formatCacheAnswers,
  measureCheckout,
  measureLastUnits,
  measurePaths,
  productKeysFromList,
  requestMany,
  type CacheAnswers,
  type CheckoutFigures,
  type HttpRow,
  type LastUnitsFigures,
  type Probe,
  type Stats,
} from "./bench-http";
import { startServer, type ServerTarget } from "./bench-server";
import { caddyMissing, reserveCaddyPorts, startCaddy } from "./caddy";
import { freePort } from "./free-port";
import { formatTable } from "./bundle-size";
import { CACHE_ANSWER_HEADER } from "../../app/utils/cache-answer";
import { MADE_TO_ORDER_BRAND } from "../../app/catalog/lead-time";

export interface ServerReport {
  database: string;
  /** Set when the server ran on the synthetic catalogue of this many products (else the real one). */
  syntheticProducts?: number;
  start?: { firstStartMs: number; loadedStartMs: number };
  memory?: { afterWarmupMb: number; after10kMb: number; requests: number; cacheAnswers: CacheAnswers };
  http?: HttpRow[];
  /** Lighthouse straight to the Node server (HTTP/1.1). */
  lighthouse?: LighthouseRow[];
  /** Lighthouse through deploy/Caddyfile (TLS, HTTP/2), or why that could not run. */
  lighthouseViaProxy?: LighthouseRow[] | { missing: string };
  checkout?: CheckoutFigures & { ordersInDatabase?: number };
  /** 100 shoppers at once after the last 3 units of one product (a store started with STOCK_DEFAULT_ON_HAND=3). */
  lastUnits?: LastUnitsFigures & { ordersInDatabase?: number; onHandAfter?: number };
}

export interface Report {
  date: string;
  machine: { cores: number; cpu: string; memoryGb: number; node: string; loadAtStart: number[]; loadAtEnd?: number[] };
  notes: string[];
  servers: ServerReport[];
  /** Console text of the scale (queries) and bundle parts. */
  sections: Array<{ title: string; text: string }>;
}

export function newReport(): Report {
  return {
    date: new Date().toISOString(),
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? "unknown",
      memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      loadAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
    },
    notes: [],
    servers: [],
    sections: [],
  };
}

export interface ServerPartOptions {
  parts: ReadonlySet<string>;
  runs: number;
  durationS: number;
  lighthouseRuns: number;
  shoppers: number;
  /** Lighthouse only on this database (the embedded one, like the issue's figures). */
  lighthouse: boolean;
}

export const DETAIL_PATH = "/product/blaze-3159840";
/** Four built-in grills (real products; copy 0 of the synthetic catalogue keeps their keys). */
const COMPARE_PATH = "/compare?items=blaze-2973501,blaze-2973507,blaze-3159831,blaze-3159834";
/** The cutout of a common 30-inch built-in grill. */
const FIT_PATH = "/fit?width=30.75&depth=21.25&height=10";

/** Any cookie makes a page private: rows "with a cookie" measure Remix rendering per request (no shared cache, ADR 013). */
const SHOPPER_COOKIE = { Cookie: "returning=1" };

/** The catalogue pages every shopper sees alike: they share the list pages' budgets. */
const CATALOGUE_ROWS = new Set(["list", "list page 2", "detail", "compare (4 products)", "fit (30 3/4 x 21 1/4 in)"]);

const catalogueProbes: Probe[] = [
  { name: "list", path: "/products/all/all" },
  { name: "list page 2", path: "/products/all/all?page=2" },
  { name: "detail", path: DETAIL_PATH },
  { name: "search", path: "/finding/grill" },
  { name: "typeahead", path: "/search-suggestions?q=grill" },
  { name: "compare (4 products)", path: COMPARE_PATH },
  { name: "fit (30 3/4 x 21 1/4 in)", path: FIT_PATH },
];

/** Rows where every request renders (her own cart, a new query string): what a real shopper gets, with their budgets. */
const RENDER_BUDGETS: Record<string, { rps: number; p99Ms?: number }> = {
  "home, every request renders": { rps: 250, p99Ms: 100 },
  "detail, every request renders": { rps: 200, p99Ms: 100 },
  "list, every request renders": { rps: 70 },
  "search, every request renders": { rps: 80 },
};

/** Shoppers with carts of their own for the rows where every request renders. */
const RENDER_SHOPPERS = 50;

function probesFor(cart: string): Probe[] {
  return [
    { name: "home", path: "/" },
    ...catalogueProbes,
    { name: "list, with a cookie", path: "/products/all/all", headers: SHOPPER_COOKIE },
    { name: "detail, with a cookie", path: DETAIL_PATH, headers: SHOPPER_COOKIE },
    { name: "cart (5 lines)", path: "/cart", headers: { Cookie: cart } },
    { name: "home, every request renders", path: "/", everyRequestRenders: true },
    { name: "detail, every request renders", path: DETAIL_PATH, everyRequestRenders: true },
    { name: "list, every request renders", path: "/products/all/all", everyRequestRenders: true },
    { name: "search, every request renders", path: "/finding/grill", everyRequestRenders: true },
  ];
}

/** One cart per shopper, each with a different product. */
export async function shopperCarts(origin: string): Promise<string[]> {
  const keys = await productKeysFromList(origin, RENDER_SHOPPERS);
  const carts: string[] = [];
  for (const key of keys) carts.push(await cartCookie(origin, [key]));
  return carts;
}

/** The pages of the phone budgets: the shopper's cart has five lines. */
function lighthousePages(cart: string): BrowserPage[] {
  return [
    { name: "home", path: "/" },
    { name: "list", path: "/products/all/all" },
    { name: "detail", path: DETAIL_PATH },
    { name: "search", path: "/finding/grill" },
    { name: "custom product", path: "/custom-product" },
    { name: "cart", path: "/cart", headers: { Cookie: cart } },
    { name: "checkout", path: "/checkout", headers: { Cookie: cart } },
  ];
}

/** The same pages as a phone gets them in production: through the project's Caddyfile, TLS and HTTP/2. */
async function measureThroughProxy(
  storePort: number,
  pages: BrowserPage[],
  runs: number,
  log: (line: string) => void,
): Promise<LighthouseRow[] | { missing: string }> {
  const missing = caddyMissing();
  if (missing) {
    log(`  Lighthouse through the production proxy skipped: ${missing}`);
    return { missing };
  }
  const caddy = await startCaddy({ upstreams: [`127.0.0.1:${storePort}`], ports: await reserveCaddyPorts() });
  try {
    log(`  Lighthouse mobile, ${runs} run(s) per page, through deploy/Caddyfile at ${caddy.url} (TLS, HTTP/2)`);
    return await measurePages(caddy.url, pages, runs, log, { trustAnyCertificate: true });
  } finally {
    await caddy.stop();
  }
}

/**
 * HTTP on the synthetic catalogue (catalog:synth --serve into the target database): the
 * catalogue pages, typeahead, compare and fit at 10 connections, with their ceilings.
 */
export async function benchSyntheticCatalogue(
  target: ServerTarget,
  options: { products: number; durationS: number; runs: number },
  log: (line: string) => void,
): Promise<ServerReport> {
  const report: ServerReport = {
    database: `${target.label}, ${options.products.toLocaleString("en-US")} synthetic products`,
    syntheticProducts: options.products,
  };
  try {
    log(`\n== Server on ${report.database}`);
    log(`  making the synthetic catalogue (npm run catalog:synth -- --serve)`);
    execFileSync(
      "npm",
      ["run", "catalog:synth", "--", "--database-url", target.env.DATABASE_URL, "--count", String(options.products), "--serve"],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const server = await startServer(target, await freePort());
    try {
      log(`  start to first 200 on it: ${server.startMs.toFixed(0)} ms`);
      const rendered = catalogueProbes
        .filter((probe) => ["list", "compare (4 products)", "fit (30 3/4 x 21 1/4 in)"].includes(probe.name))
        .map((probe) => ({ ...probe, name: `${probe.name}, with a cookie`, headers: SHOPPER_COOKIE }));
      report.http = await measurePaths(
        server.origin,
        [...catalogueProbes, ...rendered],
        { connections: [10], durationS: options.durationS, runs: options.runs, barePort: await freePort() },
        log,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await target.dispose();
  }
  return report;
}

export async function benchServer(target: ServerTarget, options: ServerPartOptions, log: (line: string) => void): Promise<ServerReport> {
  const report: ServerReport = { database: target.label };
  const { parts } = options;
  try {
    log(`\n== Server on ${target.label}`);
    const port = await freePort();
    // First start on an empty database: migrations and the catalogue load.
    let server = await startServer(target, port);
    const firstStartMs = server.startMs;
    await server.stop();
    server = await startServer(target, port);
    report.start = { firstStartMs, loadedStartMs: server.startMs };
    log(
      `  start to first 200: ${firstStartMs.toFixed(0)} ms loading the catalogue, ${server.startMs.toFixed(0)} ms on the loaded database`,
    );
    try {
      const cart = await cartCookie(server.origin, await productKeysFromList(server.origin, 5));
      const probes = probesFor(cart);
      const carts = await shopperCarts(server.origin);
      if (parts.has("server")) {
        await requestMany(server.origin, probes, probes.length * 100, carts);
        const afterWarmupMb = server.rssMb();
        const requests = 10_000;
        const cacheAnswers = await requestMany(server.origin, probes, requests, carts);
        report.memory = { afterWarmupMb, after10kMb: server.rssMb(), requests, cacheAnswers };
        log(
          `  RSS ${afterWarmupMb.toFixed(0)} MB after warm-up, ${report.memory.after10kMb.toFixed(0)} MB after ${requests} more mixed requests ` +
            `(${formatCacheAnswers(cacheAnswers)})`,
        );
      }
      if (parts.has("http")) {
        log(`  HTTP: autocannon, ${options.runs} run(s) of ${options.durationS} s per row after a 2 s warm-up`);
        report.http = await measurePaths(
          server.origin,
          probes,
          { connections: [10, 50], durationS: options.durationS, runs: options.runs, barePort: await freePort(), shopperCarts: carts },
          log,
        );
      }
      if (parts.has("lighthouse") && options.lighthouse) {
        const pages = lighthousePages(cart);
        log(`  Lighthouse mobile, ${options.lighthouseRuns} run(s) per page, straight to the store over HTTP/1.1`);
        report.lighthouse = await measurePages(server.origin, pages, options.lighthouseRuns, log);
        report.lighthouseViaProxy = await measureThroughProxy(port, pages, options.lighthouseRuns, log);
      }
      if (parts.has("checkout")) {
        log(`  Checkout: ${options.shoppers} shoppers, 10 at a time, offline test payment page`);
        const checkout: ServerReport["checkout"] = await measureCheckout(server.origin, options.shoppers, 10);
        if (target.env.DATABASE_URL) {
          const sql = postgres(target.env.DATABASE_URL, { max: 1, onnotice: () => {} });
          const [{ n }] = await sql<Array<{ n: number }>>`select count(*)::int as n from orders`;
          await sql.end();
          checkout.ordersInDatabase = n;
          // Every approved shopper should own exactly one order.
          checkout.lost = Math.max(0, checkout.shoppers - checkout.errors - n);
          checkout.duplicated = Math.max(checkout.duplicated, n - checkout.orders);
        }
        report.checkout = checkout;
        log(
          `  ${checkout.orders} orders in ${checkout.seconds.toFixed(1)} s: ${checkout.ordersPerSecond.toFixed(1)} orders/s; ` +
            `errors ${checkout.errors}, lost ${checkout.lost}, duplicated ${checkout.duplicated}${checkout.firstError ? ` (first error: ${checkout.firstError})` : ""}`,
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    await target.dispose();
  }
  return report;
}

/** Units each product has in the last-units part: every product of the fresh store starts with this many. */
const LAST_UNITS = 3;

/**
 * The last units: a fresh store whose every product has LAST_UNITS on hand; `shoppers` shoppers at once,
 * each with her own cart and address, want one unit of the same grill. Times how long until each has her
 * answer; on PostgreSQL also counts the orders and the stock left in the database.
 */
export async function benchLastUnits(target: ServerTarget, shoppers: number, log: (line: string) => void): Promise<ServerReport> {
  const report: ServerReport = { database: `${target.label}, every product ${LAST_UNITS} on hand` };
  try {
    log(`\n== Last units on ${target.label}: ${shoppers} shoppers at once after ${LAST_UNITS} units`);
    const server = await startServer({ ...target, env: { ...target.env, STOCK_DEFAULT_ON_HAND: String(LAST_UNITS) } }, await freePort());
    try {
      const [productKey] = (await productKeysFromList(server.origin, 20)).filter((key) => !key.startsWith(`${MADE_TO_ORDER_BRAND}-`));
      const figures: ServerReport["lastUnits"] = await measureLastUnits(server.origin, productKey, LAST_UNITS, shoppers);
      if (target.env.DATABASE_URL) {
        const sql = postgres(target.env.DATABASE_URL, { max: 1, onnotice: () => {} });
        const [row] = await sql<Array<{ orders: number; on_hand: number }>>`
          select (select count(*)::int from orders) as orders, (select on_hand from product_stock where product_key = ${productKey}) as on_hand`;
        await sql.end();
        figures.ordersInDatabase = row.orders;
        figures.onHandAfter = row.on_hand;
      }
      report.lastUnits = figures;
      log(
        `  ${figures.orders} orders, refused ${formatRefusals(figures.refusedAt)}, errors ${figures.errors}, in ${figures.seconds.toFixed(1)} s ` +
          `(a shopper's journey p50 ${figures.journeyMs.p50.toFixed(0)} ms, p95 ${figures.journeyMs.p95.toFixed(0)} ms)` +
          (figures.firstError ? `; first error: ${figures.firstError}` : ""),
      );
    } finally {
      await server.stop();
    }
  } finally {
    await target.dispose();
  }
  return report;
}

function formatRefusals(refusedAt: Record<string, number>): string {
  const entries = Object.entries(refusedAt);
  return entries.length === 0 ? "none" : entries.map(([at, count]) => `${count} at ${at}`).join(", ");
}

// ---------------------------------------------------------------- report text

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: digits }) : "-";
const triple = (s: Stats, digits = 0, unit = "") =>
  s.min === s.max ? `${fmt(s.median, digits)}${unit}` : `${fmt(s.median, digits)}${unit} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

interface LighthouseBudget {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptFiles: number;
}

/** The phone's budgets: a slow phone through the production proxy, and straight to one Node process. */
export const LIGHTHOUSE_BUDGETS: Record<"viaProxy" | "direct", LighthouseBudget> = {
  viaProxy: { score: 98, lcpMs: 1500, tbtMs: 50, cls: 0.02, scriptBytes: 100 * 1024, scriptFiles: 15 },
  direct: { score: 95, lcpMs: 2000, tbtMs: 50, cls: 0.02, scriptBytes: 100 * 1024, scriptFiles: 15 },
};

export const BUDGETS = {
  catalogueRps: 500,
  catalogueP95Ms: 30,
  typeaheadP95Ms: 10,
  typeaheadScaleP95Ms: 50,
  ceilingRatio: 5,
  rssMb: 250,
  loadedStartMs: 3000,
} as const;

function check(ok: boolean): string {
  return ok ? "ok" : "**OVER BUDGET**";
}

function lighthouseTable(rows: LighthouseRow[], how: string, budget: LighthouseBudget): string[] {
  const header = `\n### Lighthouse ${how} (mobile preset, simulated throttling, ${rows[0].runs} run(s) per page, system Chromium)\n`;
  const table = formatTable(
    [
      "page",
      "score",
      "LCP",
      "TBT",
      "CLS",
      "script B",
      "script files",
      "later script B (files)",
      "before pictures B",
      "total B",
      "LCP element",
      "budget",
    ],
    rows.map((row) => {
      const misses = [
        row.score.median < budget.score ? "score" : "",
        row.lcpMs.median > budget.lcpMs ? "LCP" : "",
        row.tbtMs.median > budget.tbtMs ? "TBT" : "",
        row.cls.median > budget.cls ? "CLS" : "",
        row.scriptBytes.median > budget.scriptBytes ? "script" : "",
        row.scriptFiles.median > budget.scriptFiles ? "files" : "",
      ].filter(Boolean);
      return [
        `\`${row.path}\``,
        triple(row.score),
        triple({ min: row.lcpMs.min / 1000, median: row.lcpMs.median / 1000, max: row.lcpMs.max / 1000 }, 2, " s"),
        triple(row.tbtMs, 0, " ms"),
        triple(row.cls, 3),
        triple(row.scriptBytes),
        triple(row.scriptFiles),
        `${triple(row.laterScriptBytes)} (${triple(row.laterScriptFiles)})`,
        triple(row.beforePicturesBytes),
        triple(row.totalBytes),
        `\`${row.lcpElement || "-"}\``,
        misses.length ? `**OVER BUDGET** (${misses.join(", ")})` : "ok",
      ];
    }),
    [false, true, true, true, true, true, true, true, true, true, false, false],
  );
  const note =
    `\nBudgets: score ${budget.score}+, LCP ≤ ${budget.lcpMs / 1000} s, TBT ≤ ${budget.tbtMs} ms, CLS ≤ ${budget.cls}, ` +
    `script ≤ ${budget.scriptBytes / 1024} KB in at most ${budget.scriptFiles} files at first load, transferred (what the page itself asks for, in its HTML or its inline starter; ` +
    '"later" is what its own script fetched while Lighthouse watched: parts that load on idle or near the screen). ' +
    "TBT and LCP under simulated throttling scale the CPU time measured on this machine by 4: on a busy machine they rise.";
  return [header, table, note];
}

export function formatReport(report: Report): string {
  const lines: string[] = [];
  const m = report.machine;
  lines.push(`# Performance report ${report.date}`);
  lines.push("");
  lines.push(
    `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB memory, Node ${m.node}; load average ${m.loadAtStart.join(" ")} at start` +
      (m.loadAtEnd ? `, ${m.loadAtEnd.join(" ")} at the end` : "") +
      ". Figures are medians with (min–max) over the stated runs; other work on the machine makes them noisier.",
  );
  for (const note of report.notes) lines.push(`\n${note}`);
  for (const server of report.servers) {
    lines.push(`\n## Server on ${server.database} (production build, one process)`);
    if (server.start) {
      lines.push(
        `\nStart to first 200: ${fmt(server.start.firstStartMs)} ms on a first start that loads the catalogue, ` +
          `${fmt(server.start.loadedStartMs)} ms on the loaded database (budget ${BUDGETS.loadedStartMs} ms: ${check(server.start.loadedStartMs <= BUDGETS.loadedStartMs)}).`,
      );
    }
    if (server.memory) {
      lines.push(
        `\nRSS: ${fmt(server.memory.afterWarmupMb)} MB after warm-up, ${fmt(server.memory.after10kMb)} MB after ${fmt(server.memory.requests)} more requests ` +
          `over every row below in turn (answered: ${formatCacheAnswers(server.memory.cacheAnswers ?? {})}) ` +
          `(budget ${BUDGETS.rssMb} MB${server.database === "PostgreSQL" ? `: ${check(server.memory.after10kMb <= BUDGETS.rssMb)}` : ", set for PostgreSQL; PGlite runs the database inside the process"}).`,
      );
    }
    if (server.http?.length) {
      const runs = server.http[0].runs;
      lines.push(
        `\n### HTTP (autocannon, ${runs} run(s) per row after a 2 s warm-up; bare = a bare Node http server sending the same bytes)\n`,
      );
      lines.push(
        formatTable(
          [
            "page",
            "path",
            "bytes",
            "conn",
            "store req/s",
            "p50 ms",
            "p95 ms",
            "p99 ms",
            "bare req/s",
            "bare / store",
            "errors",
            "answered by",
            "budget",
          ],
          server.http.map((row) => {
            const catalogue = CATALOGUE_ROWS.has(row.name);
            const typeahead = row.name === "typeahead";
            const typeaheadBudget = server.syntheticProducts ? BUDGETS.typeaheadScaleP95Ms : BUDGETS.typeaheadP95Ms;
            let budget = "";
            if (row.connections === 10 && server.database.startsWith("PostgreSQL")) {
              if (catalogue)
                budget = check(
                  row.store.rps.median >= BUDGETS.catalogueRps &&
                    row.store.p95.median <= BUDGETS.catalogueP95Ms &&
                    row.ratio <= BUDGETS.ceilingRatio,
                );
              if (typeahead) budget = check(row.store.p95.median <= typeaheadBudget);
              const render = RENDER_BUDGETS[row.name];
              if (render)
                budget = check(row.store.rps.median >= render.rps && (render.p99Ms === undefined || row.store.p99.median <= render.p99Ms));
            }
            return [
              row.name,
              `\`${row.path}\``,
              fmt(row.bytes),
              String(row.connections),
              triple(row.store.rps),
              triple(row.store.p50, 1),
              triple(row.store.p95, 1),
              triple(row.store.p99, 1),
              triple(row.bare.rps),
              `${fmt(row.ratio, 1)}x`,
              String(row.store.errors + row.store.non2xx),
              formatCacheAnswers(row.cacheAnswers ?? {}),
              budget,
            ];
          }),
          [false, false, true, true, true, true, true, true, true, true, true, false, false],
        ),
      );
      lines.push(
        `\nBudgets (PostgreSQL, 10 connections): list, detail, compare and fit at least ${BUDGETS.catalogueRps} req/s, p95 at most ${BUDGETS.catalogueP95Ms} ms, ` +
          `within ${BUDGETS.ceilingRatio}x of the bare server; typeahead p95 at most ${BUDGETS.typeaheadP95Ms} ms (${BUDGETS.typeaheadScaleP95Ms} ms on the synthetic catalogue). ` +
          `Where every request renders (each request a different one of ${RENDER_SHOPPERS} shoppers with her own cart, and a query string never sent before): ` +
          Object.entries(RENDER_BUDGETS)
            .map(([name, b]) => `${name.split(",")[0]} at least ${b.rps} req/s${b.p99Ms ? ` with p99 at most ${b.p99Ms} ms` : ""}`)
            .join(", ") +
          `. "answered by" says which of the store's caches answered the measured requests (${CACHE_ANSWER_HEADER} header; rendered: Remix rendered the page, loaders and stock per request, with its cards, menus and footer reviews from the markup cache once drawn, decision 031).`,
      );
    }
    if (server.lighthouse?.length)
      lines.push(...lighthouseTable(server.lighthouse, "straight to the store, HTTP/1.1", LIGHTHOUSE_BUDGETS.direct));
    if (server.lighthouseViaProxy && "missing" in server.lighthouseViaProxy) {
      lines.push(`\n### Lighthouse through the production proxy\n\nNot measured: ${server.lighthouseViaProxy.missing}.`);
    } else if (server.lighthouseViaProxy?.length) {
      lines.push(...lighthouseTable(server.lighthouseViaProxy, "through deploy/Caddyfile, TLS and HTTP/2", LIGHTHOUSE_BUDGETS.viaProxy));
    }
    if (server.checkout) {
      const c = server.checkout;
      lines.push(
        `\n### Checkout\n\n${c.shoppers} shoppers, 10 at a time (cart, checkout form, payment start, Approve on the test payment page, return page): ` +
          `${fmt(c.orders)} orders in ${fmt(c.seconds, 1)} s = **${fmt(c.ordersPerSecond, 1)} orders/s**; errors ${c.errors}, lost ${c.lost}, duplicated ${c.duplicated}` +
          (c.ordersInDatabase !== undefined ? ` (orders in the database: ${c.ordersInDatabase})` : "") +
          (c.firstError ? `. First error: ${c.firstError}` : "") +
          ` (${check(c.errors === 0 && c.lost === 0 && c.duplicated === 0)}).`,
      );
    }
    const l = server.lastUnits;
    if (l) {
      const sold = l.orders === l.units && l.errors === 0 && (l.ordersInDatabase ?? l.orders) === l.units && (l.onHandAfter ?? 0) === 0;
      lines.push(
        `\n### Last units (${server.database})\n\n${l.shoppers} shoppers at once, each with her own cart, after the last ${l.units} units of \`${l.productKey}\` ` +
          `(cart, checkout form, payment start; Approve and the return page for those who get to pay; every request renders, no cache answers): ` +
          `all answered in **${fmt(l.seconds, 1)} s**, a shopper's journey p50 ${fmt(l.journeyMs.p50)} ms, p95 ${fmt(l.journeyMs.p95)} ms, max ${fmt(l.journeyMs.max)} ms; ` +
          `${l.orders} orders, refused ${formatRefusals(l.refusedAt)}, errors ${l.errors}` +
          (l.ordersInDatabase !== undefined ? ` (orders in the database: ${l.ordersInDatabase}, on hand after: ${l.onHandAfter})` : "") +
          (l.firstError ? `. First error: ${l.firstError}` : "") +
          ` (${check(sold)}: exactly ${l.units} sold).`,
      );
    }
  }
  for (const section of report.sections) {
    lines.push(`\n## ${section.title}\n\n\`\`\`\n${section.text.trim()}\n\`\`\``);
  }
  return `${lines.join("\n")}\n`;
}
