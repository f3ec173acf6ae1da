import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { allProductKeys } from "~/catalog/queries.server";
import { createStoreHandler, type RouteFile, type StoreHandler } from "../support/remix-handler";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Hostile input never gets a 5xx. Every route module of
 * app/routes (enumerated from the folder, so a new route is fuzzed without
 * being listed here) is called through Remix's own request handler, in this
 * process and without a build (tests/support/remix-handler.ts), with
 * malformed, oversized, wrongly typed, missing and hostile values in its path
 * params, its query, its form or JSON body and its cookies, and with methods
 * it does not take. For every answer:
 *
 * - the status is below 500 and nothing is thrown or logged as an error
 *   (console.error fails the test, see tests/support/error-log.ts);
 * - a refused request (4xx) says why: the store's error page or a message in
 *   the page for HTML, `{ error }` for JSON;
 * - a refused request changes no row of any table (row counts before and after).
 *
 * The fast-check part runs with a fixed seed, so a failure is reproducible.
 */

/** Path segments, already percent-encoded as they would arrive on the wire. */
const HOSTILE_SEGMENTS = [
  "%00",
  "a%00b",
  "%01%1B%7F",
  "%C2%85", // C1 control (NEL)
  "%09",
  "%0D%0ASet-Cookie:%20x=1",
  "%E0%A4%A", // truncated UTF-8 sequence
  "%FF%FE", // never valid UTF-8
  "%ED%A0%80", // an encoded lone surrogate
  "%C0%AE%C0%AE", // overlong dots
  "%",
  "%ZZ",
  "..%2F..%2Fetc%2Fpasswd",
  "%27%20OR%201%3D1--",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "-1",
  "99999999999999999999999",
  "1e309",
  "nosuchbrand-123",
  "blaze-",
  "x".repeat(4000),
  "%F0%9F%92%A5",
];

/** Field values as a form or JSON carries them (encoded by the body). */
const HOSTILE_VALUES = [
  "\u0000",
  "blaze-\u0000x",
  "\u0001\u001b[31m\u007f\u0085",
  "\uD800",
  "' OR 1=1; DROP TABLE orders; --",
  '<script>alert("x")</script>',
  "-1",
  "-99999999999",
  "99999999999999999999",
  "1e309",
  "NaN",
  "0x10",
  "",
  " ",
  "[]",
  '{"__proto__":{"polluted":1}}',
  '[{"productKey":"blaze-\\u0000x","quantity":1e308}]',
  "../../etc/passwd",
  "\r\nX-Injected: 1",
  "y".repeat(5000),
];

/** Every field name a form of ours reads, and the intents the forms know. */
const FIELD_NAMES = [
  "intent",
  "productKey",
  "quantity",
  "position",
  "lines",
  "product",
  "promoCode",
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "city",
  "state",
  "postalCode",
  "name",
  "message",
  "subject",
  "mode",
  "option",
  "password",
  "redirectTo",
  "decision",
  "csrf",
  "order",
  "status",
  "method",
  "checkout_token",
  "checkoutToken",
  "attempt",
  "token",
  "q",
  "website",
];
const INTENTS = [
  "add",
  "buy",
  "remove",
  "quantity",
  "clear",
  "restore",
  "update",
  "status",
  "reset",
  "pay",
  "option",
  "message",
  "approve",
];

const HOSTILE_COOKIES = [
  "cart=%00",
  "cart=eyJsaW5lcyI6W119.forged-signature",
  `cart=${"A".repeat(8000)}`,
  "cart=%E0%A4%A; staff_session=%FF",
  "__session=%00; cart=",
  "chat=[[[[; last_order=../../x",
];

type Counts = Record<string, number>;

interface Answer {
  request: string;
  status: number;
  contentType: string;
  body: string;
}

describe("hostile input on every route (fuzz)", () => {
  let database: TestDatabase;
  let store: StoreHandler;
  let productKey: string;
  let tables: string[];
  let requests = 0;
  let counts: Counts = {};

  beforeAll(async () => {
    // The router warns about every malformed percent-encoding it is sent, which is the point here.
    const warn = console.warn.bind(console);
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes("could not be decoded")) warn(...args);
    });
    database = await createTestDatabase("pglite", { catalog: true });
    runtime = testRuntime(database);
    store = await createStoreHandler(runtime);
    productKey = (await allProductKeys(database.db))[0].key;
    const rows = await database.db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    // Every table but the catalog, which no request writes (loaded at start-up) and which is by far the largest to count.
    tables = rowsOf<{ name: string }>(rows)
      .map((row) => row.name)
      // Rate-limit counters count refused requests too: that is their job, not a change a refusal made.
      .filter((name) => name !== "products" && name !== "rate_limit_counters");
    counts = await rowCounts();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  function rowsOf<T>(result: unknown): T[] {
    return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
  }

  async function rowCounts(): Promise<Counts> {
    const query = tables.map((table) => `select '${table}' as name, count(*)::int as n from "${table}"`).join(" union all ");
    const rows = rowsOf<{ name: string; n: number }>(await database.db.execute(sql.raw(query)));
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
  }

  /** A valid value for each route param, so one param at a time can be made hostile. */
  function sampleParam(name: string): string {
    const samples: Record<string, string> = {
      productKey,
      brand: productKey.split("-")[0],
      id: productKey.slice(productKey.indexOf("-") + 1),
      category: "all",
      search: "grill",
      file: "1.svg",
      method: "card",
      attemptId: "pa_0123456789abcdef",
      "*": "no/such/page",
    };
    return samples[name] ?? "x";
  }

  function pathFor(route: RouteFile, hostile?: { param: string; value: string }): string {
    return route.pattern.replace(/:([A-Za-z_]+)|\*/g, (match: string, name: string | undefined) => {
      const param = name ?? "*";
      return hostile?.param === param ? hostile.value : encodeURIComponent(sampleParam(param)).replace(/%2F/g, "/");
    });
  }

  function paramsOf(route: RouteFile): string[] {
    return [...route.pattern.matchAll(/:([A-Za-z_]+)|\*/g)].map((match) => match[1] ?? "*");
  }

  /** Sends one request and checks the answer; refused requests must leave every table as it was. */
  async function send(path: string, init: RequestInit & { label?: string } = {}): Promise<Answer> {
    const method = init.method ?? "GET";
    const label = `${method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}${init.label ? ` [${init.label}]` : ""}`;
    let response: Response;
    try {
      // A fresh address per request: the rate limits are not what is being tested here.
      requests += 1;
      // A real server always has the Host header (Remix compares it with Origin on a form post).
      const headers = new Headers(init.headers);
      if (!headers.has("Host")) headers.set("Host", new URL(TEST_ORIGIN).host);
      response = await store.handle(
        new Request(`${TEST_ORIGIN}${path}`, { ...init, headers }),
        testContext(runtime, { clientAddress: `198.51.${requests % 250}.${requests % 199}` }),
      );
    } catch (error) {
      throw new Error(`${label} threw: ${String(error)}`);
    }
    const body = method === "HEAD" ? "" : await response.text();
    const answer = { request: label, status: response.status, contentType: response.headers.get("content-type") ?? "", body };
    expect(answer.status, `${label} answered ${answer.status}: ${body.slice(0, 300)}`).toBeLessThan(500);
    if (answer.status >= 400 && method !== "HEAD") expectReadable(answer);
    // Counted after every request, compared with the counts after the one before: a refused request changed nothing.
    const after = await rowCounts();
    if (answer.status >= 400) expect(after, `${label} was refused (${answer.status}) but changed rows`).toEqual(counts);
    counts = after;
    if (answer.status === 405) expect(response.headers.get("Allow") ?? "(none)", `${label}: 405 without Allow`).toMatch(/^[A-Z, ]+$/);
    return answer;
  }

  function expectReadable({ request, status, contentType, body }: Answer) {
    if (contentType.includes("application/json")) {
      const error = (JSON.parse(body) as { error?: unknown }).error;
      expect(
        typeof error === "string" && error.length > 0,
        `${request} (${status}) JSON without an error message: ${body.slice(0, 200)}`,
      ).toBe(true);
    } else if (contentType.includes("text/html")) {
      expect(body, `${request} (${status}): HTML without the store's error page or a message`).toMatch(
        /class="container error-screen"|role="alert"|aria-invalid="true"/,
      );
      expect(body, `${request} (${status}) shows the framework's screen for a refused request`).not.toContain(
        "Unexpected Application Error!",
      );
    } else {
      expect(body.trim().length, `${request} (${status}) answered with an empty ${contentType || "untyped"} body`).toBeGreaterThan(0);
    }
  }

  function formBody(values: Record<string, string>): URLSearchParams {
    return new URLSearchParams(values);
  }

  function everyField(value: string, intent = value): Record<string, string> {
    return { ...Object.fromEntries(FIELD_NAMES.map((name) => [name, value])), intent };
  }

  it("enumerates every route file of app/routes", () => {
    expect(store.routes.length).toBeGreaterThanOrEqual(50);
    expect(store.routes.map((route) => route.file)).toEqual(expect.arrayContaining(["cart.tsx", "newPurchase.ts", "$.tsx", "healthz.ts"]));
  });

  // Each part sends a few hundred requests: about ten seconds alone, minutes on a machine busy with other work.
  const PART_TIMEOUT = 300_000;

  it(
    "GET, HEAD and methods a route does not take: never a 5xx, 405 with Allow",
    async () => {
      for (const [index, route] of store.routes.entries()) {
        const path = pathFor(route);
        const rarer = ["OPTIONS", "PATCH", "DELETE"][index % 3];
        for (const method of ["GET", "HEAD", "PUT", rarer, ...(route.hasAction ? [] : ["POST"])]) {
          const body = ["GET", "HEAD"].includes(method) ? undefined : formBody({ intent: "add", productKey });
          await send(path, { method, body });
        }
        if (!route.resource) await send(`${path === "/" ? "/_root" : path}.data`);
      }
    },
    PART_TIMEOUT,
  );

  it(
    "hostile path params and query values",
    async () => {
      for (const route of store.routes) {
        // A route with several params gets every value in its first one and half of them in each other, to keep the run short.
        for (const [paramIndex, param] of paramsOf(route).entries()) {
          for (const [index, value] of HOSTILE_SEGMENTS.entries()) {
            if (paramIndex === 0 || index % 2 === paramIndex % 2) await send(pathFor(route, { param, value }));
          }
        }
      }
      const queryRoutes = store.routes.filter((route) => route.hasLoader);
      for (const [index, value] of HOSTILE_SEGMENTS.entries()) {
        const route = queryRoutes[index % queryRoutes.length];
        const query = [
          "q",
          "page",
          "checkout",
          "checkout_token",
          "attempt",
          "token",
          "id",
          "notice",
          "redirectTo",
          "order",
          "brand",
          "category",
          "image",
        ]
          .map((name) => `${name}=${value}`)
          .join("&");
        await send(`${pathFor(route)}?${query}`);
        await send(`/search-suggestions?q=${value}`);
        await send(`/finding?q=${value}`);
        await send(`/products?brand=${value}&category=${value}`);
      }
    },
    PART_TIMEOUT,
  );

  describe("form and JSON bodies", () => {
    it(
      "every field hostile, every intent, on every route that takes POST",
      async () => {
        // Each route gets every intent and a rotating half of the values (all values over two routes), to keep the run short.
        for (const [routeIndex, route] of store.routes.filter((candidate) => candidate.hasAction).entries()) {
          const path = pathFor(route);
          for (const value of HOSTILE_VALUES.filter((_, index) => index % 2 === routeIndex % 2)) {
            await send(path, { method: "POST", body: formBody(everyField(value)), label: JSON.stringify(value.slice(0, 30)) });
          }
          for (const [index, intent] of INTENTS.entries()) {
            const value = HOSTILE_VALUES[(index + routeIndex) % HOSTILE_VALUES.length];
            await send(path, {
              method: "POST",
              body: formBody(everyField(value, intent)),
              label: `${intent} ${JSON.stringify(value.slice(0, 30))}`,
            });
          }
          for (const value of [HOSTILE_VALUES[routeIndex % HOSTILE_VALUES.length], "\u0000", "-1e308"]) {
            await send(path, {
              method: "POST",
              body: JSON.stringify({ ...everyField(value), quantity: -1e308, lines: [{ productKey: value }], orderData: { a: [value] } }),
              headers: { "Content-Type": "application/json" },
              label: `json ${JSON.stringify(value.slice(0, 30))}`,
            });
          }
        }
      },
      PART_TIMEOUT,
    );

    it(
      "wrong content types, broken bodies, 1 MB fields, invalid UTF-8 and a missing form",
      async () => {
        const invalidUtf8 = new Uint8Array([
          0x69, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x3d, 0xff, 0xfe, 0x00, 0x26, 0x65, 0x6d, 0x61, 0x69, 0x6c, 0x3d, 0xc3, 0x28,
        ]);
        const bodies: Array<[string, () => RequestInit]> = [
          ["no body", () => ({ method: "POST" })],
          ["no content type", () => ({ method: "POST", body: new Blob(["intent=add"]) })],
          ["text/plain", () => ({ method: "POST", body: "intent=add", headers: { "Content-Type": "text/plain" } })],
          ["broken JSON", () => ({ method: "POST", body: '{"email": "a@', headers: { "Content-Type": "application/json" } })],
          ["JSON array", () => ({ method: "POST", body: "[1,2,3]", headers: { "Content-Type": "application/json" } })],
          ["JSON null", () => ({ method: "POST", body: "null", headers: { "Content-Type": "application/json" } })],
          [
            "multipart without parts",
            () => ({ method: "POST", body: "--x--", headers: { "Content-Type": "multipart/form-data; boundary=x" } }),
          ],
          [
            "multipart without boundary",
            () => ({ method: "POST", body: "intent=add", headers: { "Content-Type": "multipart/form-data" } }),
          ],
          [
            "invalid UTF-8",
            () => ({ method: "POST", body: invalidUtf8, headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
          ],
          ["invalid UTF-8 JSON", () => ({ method: "POST", body: invalidUtf8, headers: { "Content-Type": "application/json" } })],
          ["1 MB field", () => ({ method: "POST", body: formBody({ intent: "add", message: "m".repeat(1024 * 1024) }) })],
          [
            "1 MB JSON",
            () => ({
              method: "POST",
              body: JSON.stringify({ message: "m".repeat(1024 * 1024) }),
              headers: { "Content-Type": "application/json" },
            }),
          ],
          [
            "lying Content-Length",
            () => ({ method: "POST", body: formBody({ intent: "add" }), headers: { "Content-Length": "99999999999999999999" } }),
          ],
          [
            "cross-site form",
            () => ({
              method: "POST",
              body: formBody(everyField("x")),
              headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
            }),
          ],
          ["file part", () => ({ method: "POST", body: multipartWithFile() })],
          ["duplicate fields", () => ({ method: "POST", body: "intent=add&intent=clear&quantity=1&quantity=-5&productKey=&productKey=x" })],
        ];
        for (const route of store.routes.filter((candidate) => candidate.hasAction)) {
          for (const [label, init] of bodies) {
            const request = init();
            const headers = new Headers(request.headers);
            if (typeof request.body === "string" && !headers.has("Content-Type"))
              headers.set("Content-Type", "application/x-www-form-urlencoded");
            await send(pathFor(route), { ...request, headers, label });
          }
        }
      },
      PART_TIMEOUT,
    );
  });

  it(
    "broken, forged and oversized cookies on every page",
    async () => {
      for (const route of store.routes.filter((candidate) => candidate.hasLoader || !candidate.resource)) {
        const cookie = HOSTILE_COOKIES[route.file.length % HOSTILE_COOKIES.length];
        await send(pathFor(route), { headers: { Cookie: cookie }, label: cookie.slice(0, 40) });
      }
      for (const cookie of HOSTILE_COOKIES) {
        await send("/", { headers: { Cookie: cookie }, label: cookie.slice(0, 40) });
        await send("/cart", { headers: { Cookie: cookie }, label: cookie.slice(0, 40) });
        await send("/cart", {
          method: "POST",
          body: formBody({ intent: "add", productKey }),
          headers: { Cookie: cookie },
          label: cookie.slice(0, 40),
        });
        await send("/checkout", {
          method: "POST",
          body: formBody(everyField("x")),
          headers: { Cookie: cookie },
          label: cookie.slice(0, 40),
        });
      }
    },
    PART_TIMEOUT,
  );

  it(
    "arbitrary strings and bytes in params, queries and fields (fast-check, fixed seed)",
    async () => {
      const routes = store.routes;
      const anyText = fc.oneof(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
        fc.constantFrom(...HOSTILE_VALUES),
      );
      const anyBytes = fc.uint8Array({ maxLength: 24 });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: routes.length - 1 }),
          anyText,
          anyBytes,
          fc.constantFrom("GET", "POST"),
          fc.constantFrom(...FIELD_NAMES),
          async (routeIndex, text, bytes, method, field) => {
            const route = routes[routeIndex];
            const params = paramsOf(route);
            const segment = bytes.length % 2 === 0 ? percentEncode(new TextEncoder().encode(text)) : percentEncode(bytes);
            const path =
              params.length > 0 ? pathFor(route, { param: params[bytes.length % params.length], value: segment || "%00" }) : pathFor(route);
            const query = `?q=${percentEncode(bytes)}&page=${encodeURIComponent(String(text.length - 20))}`;
            if (method === "GET") {
              await send(`${path}${query}`);
            } else {
              await send(`${path}${query}`, {
                method,
                body: formBody({ intent: text, [field]: text, quantity: text, productKey: text }),
                label: "fast-check",
              });
            }
          },
        ),
        { seed: 20261123, numRuns: 150, endOnFailure: true },
      );
    },
    PART_TIMEOUT,
  );

  afterAll(() => {
    console.log(`fuzz-routes: ${requests} requests to ${store?.routes.length ?? 0} routes, none answered 5xx`);
  });
});

/** Every byte as %XX: any byte sequence, valid UTF-8 or not, as a path segment or query value. */
function percentEncode(bytes: Uint8Array): string {
  return [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("");
}

function multipartWithFile(): FormData {
  const form = new FormData();
  form.set("intent", "add");
  form.set("productKey", new Blob(["\u0000".repeat(10)]), "cart.json");
  return form;
}
