import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect as connectTls } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_RATE_LIMIT } from "~/chat/rate-limit.server";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { openDatabase } from "~/db/database.server";
import { createStaffAccount } from "~/staff/accounts.server";
import { CACHE_ANSWER_HEADER } from "~/utils/cache-answer";
import { formatUsd } from "~/utils/format";
import type { StoreServer } from "../e2e/support/store-server";
import { CADDYFILE, caddyMissing, reserveCaddyPorts, startCaddy, type Caddy, type CaddyLogLine } from "../../scripts/lib/caddy";
import { createScratchDatabase, freePort, missingPostgres, type ScratchDatabase } from "./support/databases";
import { startSlowUploads } from "./support/slow-uploads";
import { recordFigures } from "./support/figures";
import { createHttp2Fetcher, type Http2Fetcher } from "./support/http2-fetch";
import {
  approve,
  BROWSE_PATHS,
  confirm,
  csrfOf,
  CUSTOMER,
  DroppedConnection,
  PRODUCT_KEYS,
  Shopper,
  signInStaff,
  startPurchase,
  type Exchange,
} from "./support/shopper";
import { STAFF, startStore } from "./support/stores";

/**
 * The store as deployed (docs/deploy.md), without Docker: three store
 * processes on one PostgreSQL behind the project's own deploy/Caddyfile, run
 * by the installed Caddy with its placeholders set to the test's ports, and
 * shoppers speaking HTTP/2 over TLS to it, trusting only Caddy's own CA.
 * Caddy balances round robin, so a shopper's requests go to one process after
 * another: anything kept in one process's memory fails here. The processes
 * start together on an empty database (they take turns to migrate and load
 * the catalogue). Then 60 s of browsing and buying, during which one process
 * is killed with SIGKILL and started again: every approved payment has its
 * one order, and the only requests that fail are ones Caddy had already sent
 * to the killed process when it died (told apart by their `X-Test-Request`
 * header in Caddy's debug log).
 *
 * Skips, saying why, without Caddy (apt-get install -y caddy) or PostgreSQL.
 */

const PROCESSES = 3;
const LOAD_SECONDS = Number(process.env.SERVERS_LOAD_SECONDS ?? 60);
const LOAD_SHOPPERS = Number(process.env.SERVERS_LOAD_SHOPPERS ?? 24);
/** The heap limit `npm start` gives the store: a process pushed past it dies, as it would in production. */
const START_NODE_FLAGS = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start
  .split(" ")
  .filter((part) => part.startsWith("--max-"))
  .join(" ");
/** What a store process may hold: the RSS budget of `npm run bench` (scripts/lib/bench-report.ts). */
const RSS_LIMIT_MB = 250;
/**
 * Caddy before 2.11.2 closes a request's body when its first attempt cannot even connect, so a POST
 * whose process has just died is answered 502 instead of going to another process (fixed in
 * caddyserver/caddy#7547; production pins a later Caddy, deploy/compose.yaml). Debian's 2.6.2 has it.
 */
const CADDY_CLOSES_BODY_ON_RETRY = caddyBefore(2, 11, 2);
/** The Caddyfile's active health-check interval: the longest a dead process may still be picked. */
const HEALTH_INTERVAL_MS = Number(/health_interval (\d+)s/.exec(readFileSync(CADDYFILE, "utf8"))?.[1] ?? NaN) * 1000;

const skipReason = caddyMissing() ?? (await missingPostgres());
if (skipReason) console.log(`test:servers skipped: ${skipReason}`);

let database: ScratchDatabase;
let caddy: Caddy;
let browser: Http2Fetcher;
const stores: StoreServer[] = [];
const storePorts: number[] = [];
const figures: Record<string, unknown> = {};

function startProcess(port: number): Promise<StoreServer> {
  // Real limits: the test checks that the processes share them. Each scripted shopper has its own address.
  return startStore(database.url, {
    publicBaseUrl: caddy.url,
    env: { PORT: String(port), RATE_LIMIT_SCALE: "1", NODE_OPTIONS: START_NODE_FLAGS },
  });
}

interface RequestLine {
  time: string;
  path: string;
  status: number;
}

/** The requests a process logged (one JSON line each). */
function requestsOf(store: StoreServer): RequestLine[] {
  return store
    .output()
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as RequestLine);
}

const countOf = (store: StoreServer, path: string) => requestsOf(store).filter((line) => line.path === path).length;
const counts = (path: string) => stores.map((store) => countOf(store, path));

/** The counts once `total` more requests than `before` are logged (a process writes its line just after answering). */
async function countsAfter(path: string, before: number[], total: number): Promise<number[]> {
  const deadline = Date.now() + 2_000;
  let now = counts(path);
  while (now.reduce((sum, count, index) => sum + count - before[index], 0) < total && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = counts(path);
  }
  return now.map((count, index) => count - before[index]);
}

beforeAll(async () => {
  if (skipReason) return;
  database = await createScratchDatabase(undefined, "servers");
  const ports = await reserveCaddyPorts();
  for (let index = 0; index < PROCESSES; index++) storePorts.push(await freePort());
  // Caddy first, as compose starts it: it checks the processes' readiness until they answer.
  caddy = await startCaddy({ upstreams: storePorts.map((port) => `127.0.0.1:${port}`), ports, logLevel: "DEBUG" });
  browser = createHttp2Fetcher({ ca: caddy.ca, localAddress: "127.0.0.1" });

  // All at once on an empty database: they take turns to migrate and load the catalogue (the start-up lock).
  const started = Date.now();
  const readyAfterMs: number[] = [];
  stores.push(
    ...(await Promise.all(
      storePorts.map(async (port) => {
        const store = await startProcess(port);
        readyAfterMs.push(Date.now() - started);
        return store;
      }),
    )),
  );
  figures.startTogetherReadyMs = readyAfterMs.sort((a, b) => a - b);

  const handle = await openDatabase({ url: database.url });
  await createStaffAccount(handle.db, STAFF);
  await handle.close();
  await waitUntilCaddyRoutesToAll();
}, 180_000);

afterAll(async () => {
  browser?.close();
  if (stores.length > 0) recordFigures("servers", { ...figures, requestsPerProcess: stores.map((store) => requestsOf(store).length) });
  await Promise.all(stores.map((store) => store.stop()));
  await caddy?.stop();
  await database?.drop();
});

/** Milliseconds until `check` holds for what `read` answers, asked again at once; fails after `withinMs`. */
async function msUntil(read: () => Promise<Exchange>, check: (answer: Exchange) => boolean, withinMs = 3_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await read();
    if (check(answer)) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`${answer.path} did not change within ${withinMs} ms (status ${answer.status})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Until each process has answered a request through Caddy (its readiness check passed). */
async function waitUntilCaddyRoutesToAll() {
  const before = counts("/healthz");
  const shopper = new Shopper(caddy.url, undefined, browser.fetch);
  const deadline = Date.now() + 30_000;
  while (counts("/healthz").some((count, index) => count === before[index])) {
    if (Date.now() > deadline) throw new Error(`Caddy does not route to every process: ${counts("/healthz").join(", ")}`);
    await shopper.get("/healthz");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skipReason)(`${PROCESSES} store processes behind deploy/Caddyfile, over TLS and HTTP/2`, () => {
  it("started together on an empty database, all are ready without a failed migration or catalogue load", () => {
    for (const store of stores) {
      expect(store.output()).toMatch(/^ {2}database +PostgreSQL at /m);
      expect(store.output()).not.toMatch(/^ {2}catalogue +not loaded/m);
      expect(store.output()).toMatch(/^Store ready at /m);
    }
    // One process loaded the catalogue; the others found it loaded.
    expect(stores.filter((store) => /^ {2}catalogue +[\d,]+ products loaded/m.test(store.output()))).toHaveLength(1);
    console.log(`ready after (ms), started together: ${(figures.startTogetherReadyMs as number[]).join(", ")}`);
  });

  it("speaks HTTP/2 with Caddy's certificate and sends each request to the next process", async () => {
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    const before = counts("/healthz");
    for (let index = 0; index < PROCESSES * 2; index++) expect((await shopper.get("/healthz")).status).toBe(200);
    expect(browser.protocol()).toBe("h2");
    expect(await countsAfter("/healthz", before, PROCESSES * 2)).toEqual(Array(PROCESSES).fill(2));
  });

  it("compresses, marks hashed assets immutable and offers HTTP/3", async () => {
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    const home = await shopper.get("/");
    expect(home.headers.get("alt-svc")).toMatch(/h3=/);
    const assets = [...new Set(home.body.match(/\/build\/[^"'\s]+\.(?:js|css)/g))];
    expect(assets.length, "hashed scripts and styles on the home page").toBeGreaterThan(2);
    const fetchAll = (acceptEncoding: string) =>
      Promise.all(
        assets.map(async (asset) => {
          const answer = await browser.fetch(new URL(asset, caddy.url), { method: "GET", headers: { "accept-encoding": acceptEncoding } });
          return { asset, answer, bytes: (await answer.arrayBuffer()).byteLength };
        }),
      );
    // What Chromium sends: the build's brotli copies, made by `npm run build`, come through Caddy as they are.
    const answers = await fetchAll("gzip, deflate, br, zstd");
    for (const { asset, answer, bytes } of answers) {
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get("cache-control"), asset).toBe("public, max-age=31536000, immutable");
      // A file of a few dozen bytes that brotli would not shrink has no copy.
      if (bytes > 100) expect(answer.headers.get("content-encoding"), asset).toBe("br");
    }
    // A client without brotli still gets the largest compressed.
    const withoutBrotli = (await fetchAll("zstd, gzip")).sort((a, b) => b.bytes - a.bytes)[0];
    expect(withoutBrotli.answer.headers.get("content-encoding"), withoutBrotli.asset).toMatch(/^(gzip|zstd)$/);
    // A page is compressed by Caddy (zstd when the client takes it), not by the store.
    const page = await browser.fetch(new URL("/products/all/all", caddy.url), {
      method: "GET",
      headers: { "accept-encoding": "gzip, deflate, br, zstd" },
    });
    await page.arrayBuffer();
    expect(page.headers.get("content-encoding")).toBe("zstd");
  });

  it("keeps the cart: added through Caddy, the same on every process", async () => {
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    const added = await shopper.post("/cart", {
      intent: "add",
      productKey: PRODUCT_KEYS[0],
      quantity: "2",
      redirectTo: "/cart",
      mode: "document",
    });
    expect(added.status).toBe(303);
    const cart = await shopper.get("/cart");
    expect(cart.body).toMatch(/data-testid="cart-badge"[^>]*>2</);
    for (const store of stores) expect((await shopper.copy(store.baseURL).get("/cart")).body).toMatch(/data-testid="cart-badge"[^>]*>2</);
  });

  it("records one order when the same approved payment comes back on every process at once", async () => {
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    const ordersCounted = await metricTotal('store_orders_total{provider="test"}');
    const approvalsCounted = await metricTotal('store_payment_attempts_total{provider="test",outcome="approved"}');
    const purchase = await startPurchase(shopper, `all-${Date.now()}@example.com`);
    const returnPath = await approve(shopper, purchase.paymentId);
    // The shopper's return, a retry and a webhook reach the three processes at the same moment.
    const answers = await Promise.all(stores.map((store) => confirm(shopper.copy(store.baseURL), returnPath)));
    expect(answers[0].orderId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(new Set(answers.map((answer) => answer.orderId))).toEqual(new Set([answers[0].orderId]));
    expect((await confirm(shopper, returnPath)).orderId).toBe(answers[0].orderId);
    const orders = await database.sql`select order_id from orders where customer->>'email' = ${purchase.email}`;
    expect(orders.map((row) => row.order_id)).toEqual([answers[0].orderId]);
    // The processes' metrics, added up as Prometheus adds them: one order, one approval.
    expect(await metricTotal('store_orders_total{provider="test"}')).toBe(ordersCounted + 1);
    expect(await metricTotal('store_payment_attempts_total{provider="test",outcome="approved"}')).toBe(approvalsCounted + 1);
  });

  it("sells the last 3 units to exactly 3 of 100 shoppers buying at once on the three processes, and charges nobody else", async () => {
    const [{ product_key: productKey }] = await database.sql`
      select product_key from product_stock where policy = 'tracked' and product_key <> all(${[...PRODUCT_KEYS]}) order by product_key limit 1`;
    await database.sql`update product_stock set on_hand = 3, reserved = 0 where product_key = ${productKey}`;
    const stockOutsCounted = await metricTotal('store_stock_outs_total{at="hold"}');

    const outcomes = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        // Each shopper from an address of its own, as 100 phones would be: per-address limits stay real.
        const connection = createHttp2Fetcher({ ca: caddy.ca, localAddress: `127.30.${Math.floor(index / 250)}.${(index % 250) + 1}` });
        try {
          return await tryToBuyOne(new Shopper(caddy.url, undefined, connection.fetch), productKey, `last-${index}@example.com`);
        } finally {
          connection.close();
        }
      }),
    );
    const tally = (kind: string) => outcomes.filter((outcome) => outcome.kind === kind).length;
    expect(outcomes.filter((outcome) => outcome.kind === "failed")).toEqual([]);
    expect(tally("ordered")).toBe(3);
    expect(tally("refused")).toBe(97);

    const [row] = await database.sql`
      select
        (select count(*)::int from orders o, jsonb_array_elements(o.items) item where item->>'productKey' = ${productKey}) as orders,
        (select count(*)::int from test_payments where status = 'approved' and checkout_token in
          (select token from checkouts where customer->>'email' like 'last-%@example.com')) as charged,
        (select on_hand from product_stock where product_key = ${productKey}) as on_hand,
        (select reserved from product_stock where product_key = ${productKey}) as reserved`;
    expect(row).toEqual({ orders: 3, charged: 3, on_hand: 0, reserved: 0 });
    expect(await metricTotal('store_stock_outs_total{at="hold"}')).toBeGreaterThan(stockOutsCounted);
    figures.lastUnits = {
      shoppers: 100,
      orders: tally("ordered"),
      refused: tally("refused"),
      refusedAt: countBy(outcomes.map((outcome) => outcome.at)),
    };
  });

  it("serves each process's metrics on its own port only: /metrics is 404 through Caddy and on the store's port", async () => {
    const throughCaddy = await browser.fetch(new URL("/metrics", caddy.url), { method: "GET", headers: {} });
    await throughCaddy.arrayBuffer();
    expect(throughCaddy.status).toBe(404);
    for (const store of stores) {
      expect((await fetch(`${store.baseURL}/metrics`)).status).toBe(404);
      const text = await (await fetch(store.metricsURL)).text();
      expect(text).toMatch(/^store_ready 1$/m);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    }
  });

  it("joins Caddy's access line and the store's request line by one request id, Caddy's, whatever the client wrote", async () => {
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    await shopper.post("/cart", { intent: "add", productKey: PRODUCT_KEYS[0], quantity: "1", redirectTo: "/cart", mode: "document" });
    const answer = await browser.fetch(new URL("/cart?q=private-search", caddy.url), {
      method: "GET",
      headers: { "x-request-id": "chosen-by-the-client", cookie: shopper.cookieHeader() },
    });
    await answer.arrayBuffer();
    const requestId = answer.headers.get("x-request-id") ?? "";
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const deadline = Date.now() + 2_000;
    const storeLine = () =>
      stores.flatMap((store) => store.output().split("\n")).find((line) => line.includes(`"requestId":"${requestId}"`));
    const caddyLine = () => caddy.log().find((line) => line.msg === "handled request" && JSON.stringify(line).includes(requestId));
    while ((!storeLine() || !caddyLine()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storeLine()).toContain('"path":"/cart"');
    const accessLine = JSON.stringify(caddyLine());
    expect(accessLine).toContain('"uri":"/cart"');
    // What a shopper typed and their cookies stay out of Caddy's log, as out of the store's.
    expect(accessLine).not.toContain("private-search");
    expect(accessLine).not.toMatch(/set-cookie|"cookie"/i);
    expect(JSON.stringify(caddy.log())).not.toContain("chosen-by-the-client");
  });

  it("signs staff in through Caddy and out again; a copied session cookie is then refused by every process", async () => {
    const staff = new Shopper(caddy.url, undefined, browser.fetch);
    await signInStaff(staff, STAFF.email, STAFF.password);
    for (const store of stores) expect((await staff.copy(store.baseURL).get("/dashboard")).status).toBe(200);

    const copied = staff.copy();
    const logoutPage = await staff.get("/logout");
    expect(logoutPage.status).toBe(200);
    expect((await staff.post("/logout", { csrf: csrfOf(logoutPage.body) })).status).toBe(303);
    for (const store of stores) {
      const answer = await copied.copy(store.baseURL).get("/dashboard");
      expect(answer.status, `the copied cookie still opens /dashboard on ${store.baseURL}`).toBe(303);
      expect(answer.location).toMatch(/^\/login/);
    }
  });

  it("shows an owner's sale on every process within a second, caches included, charges it, ends it on time, and hides a product", async () => {
    const [product] = await database.sql`
      select key, title, description, price_cents::int as price from products
      where brand = 'blaze' and key <> all(${[...PRODUCT_KEYS]}) and published order by position limit 1`;
    const key = String(product.key);
    const regular = formatUsd(product.price);
    const saleCents = product.price - 1_111;
    const sale = formatUsd(saleCents);
    const reader = new Shopper(caddy.url, undefined, browser.fetch);
    // Each process keeps the page in its shared cache first: the change must reach what it keeps too.
    for (const store of stores) {
      const direct = reader.copy(store.baseURL);
      await direct.get(`/product/${key}`);
      const cached = await direct.get(`/product/${key}`);
      expect(cached.headers.get(CACHE_ANSWER_HEADER), `the page is kept on ${store.baseURL}`).toBe("shared");
      expect(cached.body).toContain(regular);
    }

    const owner = new Shopper(caddy.url, undefined, browser.fetch);
    await signInStaff(owner, STAFF.email, STAFF.password);
    const desk = await owner.get(`/catalog/${key}`);
    expect(desk.status).toBe(200);
    const version = /name="version" value="(\d+)"/.exec(desk.body)?.[1] ?? "";
    const endsAt = new Date(Date.now() + 4_000).toISOString().slice(0, 19);
    const saved = await owner.post(`/catalog/${key}`, {
      csrf: csrfOf(desk.body),
      intent: "prices",
      version,
      priceCents: (product.price / 100).toFixed(2),
      salePriceCents: (saleCents / 100).toFixed(2),
      saleStartsAt: "",
      saleEndsAt: endsAt,
    });
    expect(saved.status, saved.body.slice(0, 300)).toBe(303);
    const savedAt = Date.now();
    const seenAfterMs = await Promise.all(
      stores.map((store) =>
        msUntil(
          () => reader.copy(store.baseURL).get(`/product/${key}`),
          (page) => page.body.includes(sale),
        ),
      ),
    );
    figures.catalogueChangeSeenAfterMs = seenAfterMs;
    for (const ms of seenAfterMs) expect(ms).toBeLessThan(1_000);
    expect(Date.now() - savedAt).toBeLessThan(1_500);

    // The checkout, on whichever process Caddy picks, is priced at the sale price.
    const buyer = new Shopper(caddy.url, undefined, browser.fetch);
    const purchase = await startPurchase(buyer, `sale-${Date.now()}@example.com`, key);
    const [checkout] = await database.sql`select items from checkouts where token = ${purchase.checkoutToken}`;
    expect((checkout.items as Array<{ unitPriceCents: number }>)[0]!.unitPriceCents).toBe(saleCents);

    // The sale ends at its end time on every process, with no change made.
    const endedAfterMs = await Promise.all(
      stores.map((store) =>
        msUntil(
          () => reader.copy(store.baseURL).get(`/product/${key}`),
          (page) => !page.body.includes(sale),
          8_000,
        ),
      ),
    );
    for (const ms of endedAfterMs) expect(ms).toBeLessThan(8_000);
    expect(Date.now()).toBeLessThan(new Date(`${endsAt}Z`).getTime() + 1_000);

    // Hidden: 404 on every process, out of the sitemap.
    const again = await owner.get(`/catalog/${key}`);
    const hidden = await owner.post(`/catalog/${key}`, {
      csrf: csrfOf(again.body),
      intent: "details",
      version: /name="version" value="(\d+)"/.exec(again.body)?.[1] ?? "",
      title: String(product.title),
      description: String(product.description),
      visibility: "hidden",
    });
    expect(hidden.status, hidden.body.slice(0, 300)).toBe(303);
    for (const store of stores) {
      expect(
        await msUntil(
          () => reader.copy(store.baseURL).get(`/product/${key}`),
          (page) => page.status === 404,
        ),
      ).toBeLessThan(1_000);
      expect((await reader.copy(store.baseURL).get("/sitemap.xml")).body).not.toContain(`/product/${key}<`);
    }

    // A staff account without the owner role is refused prices by the server, on any process.
    const clerk = { email: "clerk@example.com", password: "resilience-clerk-password-01" };
    const handle = await openDatabase({ url: database.url });
    await createStaffAccount(handle.db, { ...clerk, role: "staff" });
    await handle.close();
    const staff = new Shopper(caddy.url, undefined, browser.fetch);
    await signInStaff(staff, clerk.email, clerk.password);
    const page = await staff.get(`/catalog/${key}`);
    const refused = await staff.post(`/catalog/${key}`, {
      csrf: csrfOf(page.body),
      intent: "prices",
      version: /name="version" value="(\d+)"/.exec(page.body)?.[1] ?? "",
      priceCents: "1.00",
    });
    expect(refused.status).toBe(403);
    const [after] = await database.sql`select price_cents::int as price from products where key = ${key}`;
    expect(after.price).toBe(product.price);
  });

  it("shares the chat rate limit: the processes together allow no more than one would", async () => {
    const own = createHttp2Fetcher({ ca: caddy.ca, localAddress: "127.0.0.9" });
    const visitor = new Shopper(caddy.url, undefined, own.fetch);
    const statuses: number[] = [];
    const startedAt = Date.now();
    for (let index = 0; index < CHAT_RATE_LIMIT * 2 + 2; index++) {
      const answer = await visitor.post("/chatbot", {
        intent: "message",
        text: `Do you ship grill number ${index}?`,
        mode: "fetch",
        seq: String(index),
      });
      statuses.push(answer.status);
    }
    const tookMs = Date.now() - startedAt;
    own.close();
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses).toContain(429);
    // The conversation's window starts at its first message and lasts a minute, so 42 messages sent within a
    // minute fall into one window (a slower run into at most one more per further minute). Each window allows
    // the limit, plus the first message, sent before the conversation exists and counted under the client address.
    const windows = 1 + Math.floor(tookMs / RATE_LIMITS.chat.windowMs);
    const allowed = statuses.filter((status) => status < 400).length;
    expect(allowed, `statuses: ${statuses.join(" ")}`).toBeLessThanOrEqual(CHAT_RATE_LIMIT * windows + 1);
  });

  it("overwrites the forwarded headers a client writes, and caps request bodies", async () => {
    // The same Caddyfile in front of a server that answers with the headers it received.
    const seen: IncomingHttpHeaders[] = [];
    const echo: Server = createServer((req, res) => {
      if (req.url !== "/readyz") seen.push(req.headers);
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const echoCaddy = await startCaddy({
      upstreams: [`127.0.0.1:${(echo.address() as AddressInfo).port}`],
      ports: await reserveCaddyPorts(),
    });
    const client = createHttp2Fetcher({ ca: echoCaddy.ca, localAddress: "127.0.0.7" });
    try {
      const answer = await client.fetch(new URL("/anything", echoCaddy.url), {
        method: "GET",
        headers: { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "http", "accept-encoding": "gzip" },
      });
      expect(answer.status).toBe(200);
      expect(seen.at(-1)?.["x-forwarded-for"]).toBe("127.0.0.7");
      expect(seen.at(-1)?.["x-forwarded-proto"]).toBe("https");
      // Caddy compresses pages; the store is asked for plain bytes.
      expect(seen.at(-1)?.["accept-encoding"]).toBeUndefined();
      // The build's files: the store has brotli copies, so it learns what the browser accepts.
      const asset = await client.fetch(new URL("/build/entry.client-ABC.js", echoCaddy.url), {
        method: "GET",
        headers: { "accept-encoding": "br" },
      });
      expect(asset.status).toBe(200);
      expect(seen.at(-1)?.["accept-encoding"]).toBe("br");

      const tooLarge = await client.fetch(new URL("/contact", echoCaddy.url), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ message: "x".repeat(2 * 1024 * 1024) }),
      });
      expect(tooLarge.status).toBe(413);
    } finally {
      client.close();
      await echoCaddy.stop();
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it("answers malformed uploads with 400 and serves the next shopper at once: a client's fault takes no process out", async () => {
    for (let index = 0; index < PROCESSES * 2; index++) expect(await malformedChunkedPost(caddy)).toBe(400);
    const shopper = new Shopper(caddy.url, undefined, browser.fetch);
    const started = Date.now();
    const added = await shopper.post("/cart", {
      intent: "add",
      productKey: PRODUCT_KEYS[1],
      quantity: "1",
      redirectTo: "/cart",
      mode: "document",
    });
    expect(added.status).toBe(303);
    for (let index = 0; index < PROCESSES; index++) expect((await shopper.get("/healthz")).status).toBe(200);
    expect(Date.now() - started, "the post and a health check per process, ms").toBeLessThan(1_000);
  });

  it("holds 1,000 slow uploads from one address: each is answered within seconds, other clients within 1 s, no process dies", async () => {
    const attack = startSlowUploads({ url: caddy.url, ca: caddy.ca, localAddress: "127.0.0.66", sessions: 10, streamsPerSession: 100 });
    const probes: { status: number; ms: number }[] = [];
    const maxRssMb: number[] = stores.map(() => 0);
    const probeClient = createHttp2Fetcher({ ca: caddy.ca, localAddress: "127.0.0.67" });
    const prober = new Shopper(caddy.url, undefined, probeClient.fetch);
    try {
      const probing = (async () => {
        const until = Date.now() + 12_000;
        while (Date.now() < until) {
          const started = Date.now();
          const answer = await prober.get("/healthz").catch(() => ({ status: 0 }));
          probes.push({ status: answer.status, ms: Date.now() - started });
          stores.forEach((store, index) => (maxRssMb[index] = Math.max(maxRssMb[index], store.rssMb())));
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      const settled = await attack.settled;
      await probing;
      // Per status: how many, and the first and last answered (ms after the start).
      const statuses = Object.fromEntries(
        [...new Set(settled.map((each) => each.status))].map((status) => {
          const times = settled.filter((each) => each.status === status).map((each) => each.afterMs);
          return [status, { count: times.length, firstMs: Math.min(...times), lastMs: Math.max(...times) }];
        }),
      );
      const slowest = Math.max(...settled.map((each) => each.afterMs));
      figures.slowUploads = { streams: settled.length, statuses, slowestAnsweredMs: slowest, probes: probes.length, maxRssMb };
      console.log(`slow uploads: ${JSON.stringify(figures.slowUploads)}`);

      // Past the budget at once (503), the rest once the grace for a body's minimum rate is over (408); none held for 30 s.
      // Caddy 2.6 answers a few of them 502: the store closed a connection whose body it would not read.
      expect(
        settled.every((each) => [408, 502, 503].includes(each.status)),
        JSON.stringify(statuses),
      ).toBe(true);
      expect(Object.keys(statuses)).toEqual(expect.arrayContaining(["408", "503"]));
      expect(slowest).toBeLessThan(10_000);
      expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
      // Other clients within 1 s: nineteen probes in twenty. On 2 cores the attack's own sockets take the CPU in bursts,
      // and one probe in a run has waited 1.1 s on a slow machine; none may wait 2 s.
      const probeMs = probes.map((probe) => probe.ms).sort((a, b) => a - b);
      expect(probeMs[Math.floor(probeMs.length * 0.95)], "95th percentile of /healthz through Caddy, ms").toBeLessThan(1_000);
      expect(probeMs[probeMs.length - 1], "slowest /healthz through Caddy, ms").toBeLessThan(2_000);
      expect(Math.max(...maxRssMb), "largest store process RSS, MB").toBeLessThan(RSS_LIMIT_MB);
      for (const store of stores) expect(await Promise.race([store.exited, Promise.resolve("running")])).toBe("running");
    } finally {
      attack.stop();
      probeClient.close();
    }
  });

  it(`keeps every order through ${LOAD_SECONDS} s of load with one process killed (SIGKILL) and restarted`, async () => {
    const victim = 1;
    const victimAddress = `127.0.0.1:${storePorts[victim]}`;
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    const orderIds = new Set<string>();
    let requests = 0;
    /** The `X-Test-Request` ids of the requests that failed: a 5xx or a dropped connection. */
    const failed: string[] = [];
    let purchasesApproved = 0;
    const record = (exchange: Exchange) => {
      requests++;
      statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
      if (exchange.status >= 500) failed.push(exchange.id);
    };
    /** An error that is not a request the kill cut (a dropped connection or a 5xx, already counted) is a finding. */
    const classify = (error: unknown) => {
      if (error instanceof DroppedConnection) failed.push(error.requestId);
      else if (!/got 5\d\d/.test(String((error as Error).message))) unexpected.push(String((error as Error).message).slice(0, 300));
    };
    /** A step whose request may have been cut by the kill, done again as a shopper reloading would. */
    const again = async <T>(step: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await step();
        } catch (error) {
          if (attempt === 4) throw error;
          classify(error);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };

    const tallyOrders = async () => {
      const [row] = await database.sql`
        select
          (select count(*)::int from orders) as orders,
          (select count(*)::int from test_payments where status = 'approved') as approved,
          (select count(*)::int from (select checkout_token from orders group by 1 having count(*) > 1) d) as doubled_checkouts,
          (select count(*)::int from (select payment_reference from orders group by 1 having count(*) > 1) d) as doubled_payments`;
      return row as { orders: number; approved: number; doubled_checkouts: number; doubled_payments: number };
    };
    const before = await tallyOrders();

    const started = Date.now();
    const deadline = started + LOAD_SECONDS * 1000;
    const chaos = {} as { killedAt: number; restartedAt: number; readyAt: number };
    const killAndRestart = (async () => {
      await new Promise((resolve) => setTimeout(resolve, (LOAD_SECONDS * 1000) / 3));
      chaos.killedAt = Date.now();
      stores[victim].signal("SIGKILL");
      await stores[victim].exited;
      await new Promise((resolve) => setTimeout(resolve, (LOAD_SECONDS * 1000) / 4));
      chaos.restartedAt = Date.now();
      stores[victim] = await startProcess(storePorts[victim]);
      chaos.readyAt = Date.now();
    })();

    const shopperLoop = async (index: number) => {
      for (let cycle = 0; Date.now() < deadline; cycle++) {
        // Each cycle a new shopper from an address of its own (per-address limits stay real).
        const connection = createHttp2Fetcher({ ca: caddy.ca, localAddress: `127.20.${index}.${(cycle % 250) + 1}` });
        const shopper = new Shopper(caddy.url, record, connection.fetch);
        try {
          for (let page = 0; page < 3; page++) await shopper.get(BROWSE_PATHS[(index + cycle * 3 + page) % BROWSE_PATHS.length]);
          if (cycle % 2 === 0) {
            const purchase = await startPurchase(
              shopper,
              `kill-${index}-${cycle}@example.com`,
              PRODUCT_KEYS[(index + cycle) % PRODUCT_KEYS.length],
            );
            const returnPath = await again(() => approve(shopper, purchase.paymentId));
            purchasesApproved++;
            const { orderId } = await again(async () => {
              const confirmed = await confirm(shopper, returnPath);
              if (!confirmed.orderId) throw new Error(`no order id on ${confirmed.exchange.path}: got ${confirmed.exchange.status}`);
              return confirmed;
            });
            orderIds.add(orderId!);
          }
        } catch (error) {
          classify(error);
        } finally {
          connection.close();
        }
      }
    };
    await Promise.all(Array.from({ length: LOAD_SHOPPERS }, (_, index) => shopperLoop(index)));
    await killAndRestart;
    const elapsedSeconds = (Date.now() - started) / 1000;

    const after = await tallyOrders();
    // This run's own: the tests before it left an order.
    const tally = { ...after, orders: after.orders - before.orders, approved: after.approved - before.approved };
    const shownInDatabase = await database.sql`select count(*)::int as n from orders where order_id = any(${[...orderIds]})`;

    // What Caddy did about the killed process, from its debug log ("selected upstream" per attempt).
    const log = caddy.log();
    const picked = (line: CaddyLogLine) => line.msg === "selected upstream" && line.dial === victimAddress;
    const at = (line: CaddyLogLine) => line.ts * 1000;
    const pickedWhileDead = log.filter((line) => picked(line) && at(line) >= chaos.killedAt && at(line) < chaos.restartedAt);
    const firstCheckFailed = log.find(
      (line) => line.logger?.endsWith("health_checker.active") === true && line.host === victimAddress && at(line) >= chaos.killedAt,
    );
    const pickedAgain = log.find((line) => picked(line) && at(line) >= chaos.readyAt);
    const cut = requestsCutByDeath(log, victimAddress, chaos.killedAt, chaos.restartedAt);
    const bodyLostOnRetry = CADDY_CLOSES_BODY_ON_RETRY ? postsLostOnRetry(log, victimAddress) : new Set<string>();
    const failedUnexplained = failed.filter((id) => !cut.ids.has(id) && !bodyLostOnRetry.has(id));

    const load = {
      seconds: Math.round(elapsedSeconds),
      shoppers: LOAD_SHOPPERS,
      requests,
      requestsPerSecond: Math.round(requests / elapsedSeconds),
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      failed: failed.length,
      underWayOnKilledProcess: cut.ids.size,
      postsLostOnRetryByCaddy: bodyLostOnRetry.size,
      killedProcessDiedAfterMs: cut.diedAt === null ? null : Math.round(cut.diedAt - chaos.killedAt),
      purchasesApproved,
      ordersShown: orderIds.size,
      ordersInDatabase: tally.orders,
      approvedPayments: tally.approved,
      doubledOrders: tally.doubled_checkouts + tally.doubled_payments,
      killedProcessPickedAfterKill: pickedWhileDead.length,
      lastPickedAfterKillMs: pickedWhileDead.length ? Math.round(at(pickedWhileDead.at(-1)!) - chaos.killedAt) : 0,
      firstHealthCheckFailedAfterKillMs: firstCheckFailed ? Math.round(at(firstCheckFailed) - chaos.killedAt) : null,
      restartedReadyAfterMs: chaos.readyAt - chaos.restartedAt,
      routedAgainAfterReadyMs: pickedAgain ? Math.round(at(pickedAgain) - chaos.readyAt) : null,
    };
    figures.killAndRestart = load;
    console.log(`kill and restart under load: ${JSON.stringify(load)}`);

    expect(unexpected.slice(0, 10)).toEqual([]);
    expect(requests).toBeGreaterThan(LOAD_SHOPPERS * 10);
    expect(failedUnexplained, "failed requests that Caddy had not sent to the killed process before it died").toEqual([]);
    expect(orderIds.size, "every approved purchase ended with its order").toBe(purchasesApproved);
    expect(shownInDatabase[0].n, "every order a shopper was shown is in the database").toBe(orderIds.size);
    expect(tally.orders, "orders = approved payments").toBe(tally.approved);
    expect(tally.orders).toBe(orderIds.size);
    expect(load.doubledOrders).toBe(0);
    expect(load.lastPickedAfterKillMs, "Caddy stops sending to the killed process within its health-check interval").toBeLessThanOrEqual(
      HEALTH_INTERVAL_MS,
    );
    expect(load.routedAgainAfterReadyMs, "and sends to it again once it is ready").not.toBeNull();
    expect(load.routedAgainAfterReadyMs!).toBeLessThanOrEqual(HEALTH_INTERVAL_MS + 1_000);
  }, 240_000);
});

/**
 * What the kill cut, from Caddy's debug log ("upstream roundtrip": one line per
 * attempt to reach a process, with the request's headers, how long the
 * attempt took, and the error when the process gave no answer). SIGKILL takes
 * tens of milliseconds to close a process's connections, and Caddy may send it
 * requests until then; its death is when the last of them failed with the
 * connection reset or closed (an attempt that could not even connect is tried
 * again on another process). A request was cut when its last attempt went to
 * the killed process, was sent no later than that, and was still under way
 * at the kill.
 */
function requestsCutByDeath(log: CaddyLogLine[], victimAddress: string, killedAt: number, restartedAt: number) {
  const attempts = log
    .filter((line) => line.msg === "upstream roundtrip")
    .map((line) => {
      const request = line.request as { headers?: Record<string, string[]> } | undefined;
      const endedAt = line.ts * 1000;
      return {
        id: request?.headers?.["X-Test-Request"]?.[0],
        upstream: line.upstream as string,
        sentAt: endedAt - (line.duration as number) * 1000,
        endedAt,
        error: typeof line.error === "string" ? line.error : null,
      };
    });
  const connectionsLost = attempts.filter(
    (attempt) =>
      attempt.upstream === victimAddress &&
      attempt.error !== null &&
      !attempt.error.startsWith("dial ") &&
      attempt.endedAt >= killedAt &&
      attempt.endedAt < restartedAt,
  );
  const diedAt = connectionsLost.length > 0 ? Math.max(...connectionsLost.map((attempt) => attempt.endedAt)) : null;
  const lastAttempt = new Map(attempts.filter((attempt) => attempt.id !== undefined).map((attempt) => [attempt.id!, attempt]));
  const ids = new Set<string>();
  for (const [id, attempt] of lastAttempt) {
    if (diedAt !== null && attempt.upstream === victimAddress && attempt.sentAt <= diedAt && attempt.endedAt >= killedAt) ids.add(id);
  }
  return { diedAt, ids };
}

/**
 * The requests Caddy lost to its own retry bug (CADDY_CLOSES_BODY_ON_RETRY): an attempt that could not
 * connect to the killed process, then one on another process that failed because the body was closed.
 */
function postsLostOnRetry(log: CaddyLogLine[], victimAddress: string): Set<string> {
  const attemptsOf = new Map<string, { upstream: string; error: string }[]>();
  for (const line of log) {
    if (line.msg !== "upstream roundtrip" || typeof line.error !== "string") continue;
    const id = (line.request as { headers?: Record<string, string[]> } | undefined)?.headers?.["X-Test-Request"]?.[0];
    if (id) attemptsOf.set(id, [...(attemptsOf.get(id) ?? []), { upstream: line.upstream as string, error: line.error }]);
  }
  const lost = new Set<string>();
  for (const [id, attempts] of attemptsOf) {
    const dialedDead = attempts.some((attempt) => attempt.upstream === victimAddress && attempt.error.startsWith("dial "));
    if (dialedDead && attempts.at(-1)!.error.endsWith("body closed by handler")) lost.add(id);
  }
  return lost;
}

/** Whether the installed Caddy is older than the given release. */
function caddyBefore(major: number, minor: number, patch: number): boolean {
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(spawnSync("caddy", ["version"], { encoding: "utf8" }).stdout ?? "");
  if (!version) return false;
  const [a, b, c] = version.slice(1).map(Number);
  return a * 1_000_000 + b * 1_000 + c < major * 1_000_000 + minor * 1_000 + patch;
}

/** The status Caddy answers to a chunked POST whose first chunk size is not hexadecimal (a client's broken upload). */
function malformedChunkedPost(target: Caddy): Promise<number> {
  const { hostname, port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const socket = connectTls(
      { host: hostname, port: Number(port), servername: "localhost", ca: target.ca, ALPNProtocols: ["http/1.1"] },
      () => {
        socket.write(
          "POST /cart HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        );
      },
    );
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("error", reject);
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer: ${answer.slice(0, 200)}`)));
  });
}

type BuyOutcome = { kind: "ordered" | "refused" | "failed"; at: string; detail?: string };

/**
 * One shopper who wants one unit: cart, checkout form, payment start, Approve, return page. Ends ordered, or
 * refused for want of stock at some step (a 4xx page or a redirect that says so), never with a 5xx.
 */
async function tryToBuyOne(shopper: Shopper, productKey: string, email: string): Promise<BuyOutcome> {
  const failed = (at: string, exchange: Exchange): BuyOutcome => ({
    kind: "failed",
    at,
    detail: `${exchange.status} ${exchange.location ?? exchange.body.slice(0, 200)}`,
  });
  const refusedOrFailed = (at: string, exchange: Exchange): BuyOutcome =>
    exchange.status < 500 && /stock|left|last one/i.test(`${exchange.location ?? ""} ${exchange.body}`)
      ? { kind: "refused", at }
      : failed(at, exchange);
  const added = await shopper.post("/cart", { intent: "add", productKey, quantity: "1", redirectTo: "/cart", mode: "document" });
  if (added.status >= 400) return refusedOrFailed("cart", added);
  const details = await shopper.post("/checkout", { ...CUSTOMER, email });
  const checkoutToken = new URL(details.location ?? "", "http://x").searchParams.get("checkout");
  if (!checkoutToken) return refusedOrFailed("checkout", details);
  const started = await shopper.post("/payments/start", { checkout: checkoutToken, method: "stripe" });
  const paymentId = /^\/test-payment\/([^/?]+)/.exec(started.location ?? "")?.[1];
  if (!paymentId) return refusedOrFailed("payment start", started);
  const { exchange, orderId } = await confirm(shopper, await approve(shopper, paymentId));
  return orderId ? { kind: "ordered", at: "order" } : refusedOrFailed("return page", exchange);
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** A series' value added up over every store process's metrics (0 where a process has none). */
async function metricTotal(series: string): Promise<number> {
  let total = 0;
  for (const store of stores) {
    const line = (await (await fetch(store.metricsURL)).text()).split("\n").find((candidate) => candidate.startsWith(`${series} `));
    total += line ? Number(line.slice(series.length + 1)) : 0;
  }
  return total;
}
