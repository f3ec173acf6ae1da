/**
 * HTTP figures: autocannon against the store, and against a bare Node `http`
 * server answering the same bytes (the ceiling), in the same run; a cart
 * with five lines; checkout end to end on the offline test payment page.
 */
import autocannon, { type AutocannonRequest, type Options } from "autocannon";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CACHE_ANSWER_HEADER } from "../../app/utils/cache-answer";

export interface Stats {
  min: number;
  median: number;
  max: number;
}

export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { min: Number.NaN, median: Number.NaN, max: Number.NaN };
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1] };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface CannonRun {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run; latency percentiles from every response (autocannon's own histogram has no p95). */
export function cannon(options: Options): Promise<CannonRun> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon({ timeout: 30, ...options }, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      resolve({
        rps: result.requests.total / Math.max(0.001, result.duration),
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        requests: result.requests.total,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      });
    });
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

export interface Probe {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /**
   * Each request a different shopper's: her own cart cookie in turn and a query string never sent
   * before, as real shoppers with their own carts, filters and searches are. No cache can answer it.
   */
  everyRequestRenders?: boolean;
}

/** How many responses each cache answered ("rendered" for none). */
export type CacheAnswers = Record<string, number>;

/**
 * The autocannon requests for a probe: counting which cache answered each response and, for a
 * probe where every request renders, giving each request its own shopper and query string.
 */
export function probeRequests(probe: Probe, carts: readonly string[], answers: CacheAnswers): AutocannonRequest[] {
  const onResponse = (_status: number, _body: string, _context: unknown, headers: Record<string, string | string[]>) => {
    let answer = "rendered";
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === CACHE_ANSWER_HEADER) answer = String(value);
    }
    answers[answer] = (answers[answer] ?? 0) + 1;
  };
  if (!probe.everyRequestRenders) return [{ path: probe.path, headers: probe.headers, onResponse }];
  if (carts.length === 0) throw new Error(`${probe.name}: a probe where every request renders needs shoppers' carts`);
  let sent = 0;
  const separator = probe.path.includes("?") ? "&" : "?";
  return [
    {
      onResponse,
      setupRequest: (request) => {
        sent += 1;
        return {
          ...request,
          path: `${probe.path}${separator}visit=${process.pid}-${sent}`,
          headers: { ...request.headers, ...probe.headers, cookie: carts[sent % carts.length] },
        };
      },
    },
  ];
}

export interface HttpRow {
  name: string;
  path: string;
  bytes: number;
  connections: number;
  runs: number;
  store: { rps: Stats; p50: Stats; p95: Stats; p99: Stats; errors: number; non2xx: number };
  /** Which cache answered the measured requests (all runs). */
  cacheAnswers: CacheAnswers;
  bare: { rps: Stats; p95: Stats };
  /** bare rps / store rps, medians. */
  ratio: number;
}

/** A bare Node http server answering one fixed body (in its own process, like the store). */
async function bareServer(body: Buffer, contentType: string, port: number): Promise<{ stop: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-bare-"));
  const file = path.join(dir, "body");
  writeFileSync(file, body);
  const script = `
    const http = require("node:http");
    const body = require("node:fs").readFileSync(${JSON.stringify(file)});
    http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": ${JSON.stringify(contentType)}, "Content-Length": body.length });
      res.end(body);
    }).listen(${port}, "127.0.0.1", () => process.stdout.write("ready\\n"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return { stop: () => child.kill() };
}

export async function measurePaths(
  origin: string,
  probes: readonly Probe[],
  {
    connections,
    durationS,
    runs,
    barePort,
    shopperCarts = [],
  }: { connections: readonly number[]; durationS: number; runs: number; barePort: number; shopperCarts?: readonly string[] },
  progress: (line: string) => void,
): Promise<HttpRow[]> {
  const rows: HttpRow[] = [];
  for (const probe of probes) {
    const url = `${origin}${probe.path}`;
    const sampleHeaders = probe.everyRequestRenders ? { ...probe.headers, cookie: shopperCarts[0] ?? "" } : probe.headers;
    const sample = await fetch(url, { headers: sampleHeaders, redirect: "manual" });
    const body = Buffer.from(await sample.arrayBuffer());
    const contentType = sample.headers.get("content-type") ?? "text/html; charset=utf-8";
    const bare = await bareServer(body, contentType, barePort);
    try {
      for (const c of connections) {
        // Warm-up: fills the server's caches and the JIT, not counted.
        await cannon({ url, connections: c, duration: 2, requests: probeRequests(probe, shopperCarts, {}) });
        const storeRuns: CannonRun[] = [];
        const bareRuns: CannonRun[] = [];
        const cacheAnswers: CacheAnswers = {};
        for (let i = 0; i < runs; i++) {
          const requests = probeRequests(probe, shopperCarts, cacheAnswers);
          storeRuns.push(await cannon({ url, connections: c, duration: durationS, requests }));
          bareRuns.push(await cannon({ url: `http://127.0.0.1:${barePort}${probe.path}`, connections: c, duration: durationS }));
        }
        const storeRps = stats(storeRuns.map((r) => r.rps));
        const bareRps = stats(bareRuns.map((r) => r.rps));
        const row: HttpRow = {
          name: probe.name,
          path: probe.path,
          bytes: body.length,
          connections: c,
          runs,
          store: {
            rps: storeRps,
            p50: stats(storeRuns.map((r) => r.p50)),
            p95: stats(storeRuns.map((r) => r.p95)),
            p99: stats(storeRuns.map((r) => r.p99)),
            errors: storeRuns.reduce((n, r) => n + r.errors, 0),
            non2xx: storeRuns.reduce((n, r) => n + r.non2xx, 0),
          },
          cacheAnswers,
          bare: { rps: bareRps, p95: stats(bareRuns.map((r) => r.p95)) },
          ratio: storeRps.median > 0 ? bareRps.median / storeRps.median : Number.NaN,
        };
        rows.push(row);
        progress(
          `  ${probe.name} c=${c}: ${storeRps.median.toFixed(0)} req/s, p95 ${row.store.p95.median.toFixed(1)} ms; bare ${bareRps.median.toFixed(0)} req/s (${row.ratio.toFixed(1)}x); ${formatCacheAnswers(cacheAnswers)}`,
        );
      }
    } finally {
      bare.stop();
    }
  }
  return rows;
}

/** "shared 98%, rendered 2%": which cache answered, as shares of the responses. */
export function formatCacheAnswers(answers: CacheAnswers): string {
  const total = Object.values(answers).reduce((sum, n) => sum + n, 0);
  if (total === 0) return "-";
  return Object.entries(answers)
    .sort((a, b) => b[1] - a[1])
    .map(([answer, n]) => `${answer} ${Math.round((n / total) * 100)}%`)
    .join(", ");
}

/** The form a shopper's browser would post from the store's own page. */
async function postForm(origin: string, pathname: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
  return fetch(`${origin}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: origin,
      "Sec-Fetch-Site": "same-origin",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

function mergeCookies(cookie: string, response: Response): string {
  const jar = new Map(
    cookie
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair] as const),
  );
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0];
    jar.set(pair.split("=")[0], pair);
  }
  return [...jar.values()].join("; ");
}

/** Product keys from the first list page, in order. */
export async function productKeysFromList(origin: string, count: number): Promise<string[]> {
  const html = await (await fetch(`${origin}/products/all/all`)).text();
  const keys = [...html.matchAll(/name="productKey" value="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(keys)].slice(0, count);
}

/** A cart cookie holding one of each product. */
export async function cartCookie(origin: string, keys: readonly string[]): Promise<string> {
  let cookie = "";
  for (const productKey of keys) {
    const response = await postForm(
      origin,
      "/cart",
      { intent: "add", productKey, quantity: "1", redirectTo: "/cart", mode: "document" },
      cookie,
    );
    await response.arrayBuffer();
    cookie = mergeCookies(cookie, response);
  }
  return cookie;
}

const SHOPPER = {
  firstName: "Bench",
  lastName: "Shopper",
  phone: "5551234567",
  address: "1 Bench Way",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
};

export interface CheckoutFigures {
  shoppers: number;
  orders: number;
  seconds: number;
  ordersPerSecond: number;
  errors: number;
  lost: number;
  duplicated: number;
  /** One example of what went wrong, if anything. */
  firstError?: string;
}

/** One shopper: cart, checkout form, payment start, Approve on the test page, the return page. Gives the order id. */
async function oneCheckout(origin: string, productKey: string, shopper: number): Promise<string> {
  let cookie = await cartCookie(origin, [productKey]);
  const form = await postForm(origin, "/checkout", { ...SHOPPER, email: `bench-${process.pid}-${shopper}@example.com` }, cookie);
  await form.arrayBuffer();
  cookie = mergeCookies(cookie, form);
  const token = /checkout=([^&]+)/.exec(form.headers.get("location") ?? "")?.[1];
  if (!token) throw new Error(`checkout form answered ${form.status} without a checkout`);
  const start = await postForm(origin, "/payments/start", { checkout: decodeURIComponent(token), method: "stripe" }, cookie);
  await start.arrayBuffer();
  const paymentPage = start.headers.get("location") ?? "";
  if (!/\/test-payment\//.test(paymentPage)) throw new Error(`payment start went to ${paymentPage || start.status}`);
  const approve = await postForm(origin, new URL(paymentPage, origin).pathname, { decision: "approved" }, cookie);
  await approve.arrayBuffer();
  let location = approve.headers.get("location");
  for (let hop = 0; hop < 5 && location; hop++) {
    const orderId = /\/order-status\/([^/?#]+)/.exec(location)?.[1] ?? /[?&]order=([^&#]+)/.exec(location)?.[1];
    if (orderId) return decodeURIComponent(orderId);
    const next = await fetch(new URL(location, origin), { redirect: "manual", headers: { Cookie: cookie } });
    const text = await next.text();
    cookie = mergeCookies(cookie, next);
    location = next.headers.get("location");
    if (!location) {
      const shown = /Order (?:number|ID|id)[^A-Z0-9]*([A-Z0-9-]{6,})/.exec(text)?.[1] ?? /\/order-status\/([^"?#]+)/.exec(text)?.[1];
      if (shown) return shown;
      throw new Error(`return page ${next.status} shows no order id`);
    }
  }
  throw new Error("no order id after the return page");
}

/** `shoppers` checkouts, `concurrency` at a time. */
export async function measureCheckout(origin: string, shoppers: number, concurrency: number): Promise<CheckoutFigures> {
  const keys = await productKeysFromList(origin, 20);
  const orderIds: string[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < shoppers) {
        const shopper = next++;
        try {
          orderIds.push(await oneCheckout(origin, keys[shopper % keys.length], shopper));
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
        }
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const unique = new Set(orderIds);
  return {
    shoppers,
    orders: unique.size,
    seconds,
    ordersPerSecond: unique.size / seconds,
    errors,
    lost: shoppers - errors - orderIds.length,
    duplicated: orderIds.length - unique.size,
    firstError,
  };
}

export interface LastUnitsFigures {
  productKey: string;
  units: number;
  shoppers: number;
  /** From the first request to the last shopper's answer, all shoppers at once. */
  seconds: number;
  /** One shopper's whole journey (cart, checkout form, payment start, and for the lucky ones Approve and the return page). */
  journeyMs: { p50: number; p95: number; max: number };
  orders: number;
  /** Shoppers told the stock was gone, by the step that told them. */
  refusedAt: Record<string, number>;
  /** Answers that were neither an order nor a refusal for stock (5xx, a dropped connection, a page without either). */
  errors: number;
  firstError?: string;
}

type LastUnitOutcome = { kind: "ordered"; orderId: string } | { kind: "refused"; at: string } | { kind: "error"; detail: string };

/**
 * `shoppers` shoppers, all at once, each with a cart of its own, want one unit of a product the store holds
 * `units` of: how long until every one has her answer, and whether exactly `units` were sold.
 */
export async function measureLastUnits(origin: string, productKey: string, units: number, shoppers: number): Promise<LastUnitsFigures> {
  const journeys: number[] = [];
  const began = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: shoppers }, async (_, shopper) => {
      const started = performance.now();
      const outcome = await buyLastUnit(origin, productKey, shopper).catch((error: unknown): LastUnitOutcome => ({
        kind: "error",
        detail: (error as Error).message,
      }));
      journeys.push(performance.now() - started);
      return outcome;
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const sorted = journeys.sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  const refusedAt: Record<string, number> = {};
  for (const outcome of outcomes) if (outcome.kind === "refused") refusedAt[outcome.at] = (refusedAt[outcome.at] ?? 0) + 1;
  const errors = outcomes.filter((outcome) => outcome.kind === "error");
  return {
    productKey,
    units,
    shoppers,
    seconds,
    journeyMs: { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN },
    orders: new Set(outcomes.flatMap((outcome) => (outcome.kind === "ordered" ? [outcome.orderId] : []))).size,
    refusedAt,
    errors: errors.length,
    firstError: errors[0]?.kind === "error" ? errors[0].detail : undefined,
  };
}

/** One shopper after one unit: an order, or the step that said the stock was gone (a 4xx or a redirect saying so). */
async function buyLastUnit(origin: string, productKey: string, shopper: number): Promise<LastUnitOutcome> {
  const refusal = async (at: string, response: Response): Promise<LastUnitOutcome> => {
    const text = `${response.headers.get("location") ?? ""} ${await response.text()}`;
    return response.status < 500 && /stock|left|last one/i.test(text)
      ? { kind: "refused", at }
      : { kind: "error", detail: `${at} answered ${response.status} ${text.slice(0, 120)}` };
  };
  const added = await postForm(origin, "/cart", { intent: "add", productKey, quantity: "1", redirectTo: "/cart", mode: "document" });
  if (added.status >= 400) return refusal("cart", added);
  await added.arrayBuffer();
  let cookie = mergeCookies("", added);
  const form = await postForm(origin, "/checkout", { ...SHOPPER, email: `last-unit-${process.pid}-${shopper}@example.com` }, cookie);
  const token = /checkout=([^&]+)/.exec(form.headers.get("location") ?? "")?.[1];
  if (!token) return refusal("checkout form", form);
  await form.arrayBuffer();
  cookie = mergeCookies(cookie, form);
  const start = await postForm(origin, "/payments/start", { checkout: decodeURIComponent(token), method: "stripe" }, cookie);
  const paymentPage = start.headers.get("location") ?? "";
  if (!/\/test-payment\//.test(paymentPage)) return refusal("payment start", start);
  await start.arrayBuffer();
  const approve = await postForm(origin, new URL(paymentPage, origin).pathname, { decision: "approved" }, cookie);
  await approve.arrayBuffer();
  let location = approve.headers.get("location");
  for (let hop = 0; hop < 5 && location; hop++) {
    const orderId = /\/order-status\/([^/?#]+)/.exec(location)?.[1] ?? /[?&]order=([^&#]+)/.exec(location)?.[1];
    if (orderId) return { kind: "ordered", orderId: decodeURIComponent(orderId) };
    const next = await fetch(new URL(location, origin), { redirect: "manual", headers: { Cookie: cookie } });
    cookie = mergeCookies(cookie, next);
    location = next.headers.get("location");
    if (!location) {
      const text = await next.clone().text();
      const shown = /data-testid="order-id">([^<]+)</.exec(text)?.[1]?.trim();
      return shown ? { kind: "ordered", orderId: shown } : refusal("return page", next);
    }
    await next.arrayBuffer();
  }
  return { kind: "error", detail: "no order id after the return page" };
}

/** Server memory after `amount` requests spread over the probes. */
/** `amount` requests over the probes in turn, 10 at a time; which cache answered them. */
export async function requestMany(
  origin: string,
  probes: readonly Probe[],
  amount: number,
  shopperCarts: readonly string[] = [],
): Promise<CacheAnswers> {
  const answers: CacheAnswers = {};
  await cannon({
    url: origin,
    connections: 10,
    amount,
    requests: probes.flatMap((probe) => probeRequests(probe, shopperCarts, answers)),
  });
  return answers;
}
