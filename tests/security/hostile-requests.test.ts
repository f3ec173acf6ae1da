import { arrayOverlaps, count, desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkouts, orders, products } from "~/db/schema";
import { neutralizeCrossSiteOrigin } from "~/http/request-screen";
import { MAX_LINE_QUANTITY } from "~/cart/cart";
import { ORDER_TOO_LARGE_MESSAGE } from "~/pricing/pricing";
import { cleanText, hasControlCharacters } from "~/utils/request-text";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { cookieFrom, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Caps on orders and lines, method refusals and control characters, through the whole request handler
 * (router, loaders, actions, error boundaries, HTML), as a browser would see them.
 */

const CUSTOMER = {
  firstName: "Dana",
  lastName: "Reyes",
  email: "dana@example.com",
  phone: "5125550142",
  address: "100 Main St",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
};

describe("hostile requests through the request handler", () => {
  let database: TestDatabase;
  let store: StoreHandler;
  let productKey: string;

  beforeAll(async () => {
    database = await createTestDatabase("pglite", { catalog: true });
    runtime = testRuntime(database);
    store = await createStoreHandler(runtime);
    productKey = (await database.db.select({ key: products.key }).from(products).limit(1))[0].key;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  function send(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set("Host", new URL(TEST_ORIGIN).host);
    return store.handle(new Request(`${TEST_ORIGIN}${path}`, { ...init, headers }), testContext(runtime, { clientAddress: "192.0.2.10" }));
  }

  const form = (values: Record<string, string>) => new URLSearchParams(values);

  describe("row 12: methods a page does not take", () => {
    it.each([
      "/",
      `/product/{key}`,
      "/products/all/all",
      "/finding/grill",
      "/custom-product",
      "/order-status",
      "/privacy-policy",
      "/love-rub",
    ])("POST %s answers 405 with Allow: GET, HEAD in the store's layout", async (template) => {
      const response = await send(template.replace("{key}", productKey), { method: "POST", body: form({ intent: "add" }) });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD");
      const html = await response.text();
      expect(html).toContain("This page can&#x27;t do that");
      expect(html).toContain('class="site-header');
      expect(html).toContain("Back to the home page");
      expect(html).not.toContain("Unexpected Application Error!");
    });

    it("PUT, PATCH and DELETE to every form page answer 405 with Allow: GET, HEAD, POST and change nothing", async () => {
      const formPages = store.routes.filter((route) => route.hasAction && !route.resource && !route.pattern.includes(":"));
      expect(formPages.map((route) => route.pattern)).toEqual(expect.arrayContaining(["/cart", "/contact", "/checkout", "/login"]));
      for (const route of formPages) {
        for (const method of ["PUT", "PATCH", "DELETE"]) {
          const response = await send(route.pattern, { method, body: form({ intent: "add", productKey, quantity: "1" }) });
          expect([route.pattern, method, response.status, response.headers.get("Allow")]).toEqual([
            route.pattern,
            method,
            405,
            "GET, HEAD, POST",
          ]);
          expect(response.headers.get("Set-Cookie")).toBeNull();
          // The store's error page; the chat (a bare page in its own frame) shows the message in its own boundary.
          expect(await response.text(), `${method} ${route.pattern}`).toMatch(
            /data-status="405"|This address accepts a form sent with POST only/,
          );
        }
      }
    });

    it("resource routes that only answer GET say so with Allow", async () => {
      for (const path of ["/healthz", "/sitemap.xml", "/robots.txt", "/search-suggestions?q=grill", `/images/products/x/y/1.svg`]) {
        const response = await send(path, { method: "POST", body: form({ a: "1" }) });
        expect([path, response.status, response.headers.get("Allow")]).toEqual([path, 405, "GET, HEAD"]);
        expect(await response.text()).toContain("GET and HEAD only");
      }
    });
  });

  describe("row 13: NUL and other control characters", () => {
    it.each([
      ["/search-suggestions?q=%00", [200]],
      ["/search-suggestions?q=grill%00%01", [200]],
      ["/finding/%00", [200]],
      ["/finding/grill%00", [200]],
      ["/finding/%E0%A4%A", [200]],
      ["/finding/%FF%FE", [200]],
      ["/product/blaze-%00", [404]],
      ["/product/%00", [404]],
      ["/products/%00/all", [200]],
      ["/products/all/%00", [200]],
      ["/images/products/blaze/%00/1.svg", [404]],
      ["/images/products/%00/%00/%00", [404]],
      ["/test-payment/%00", [404]],
      ["/test-payment/tp_%00", [404]],
      ["/order-status/%00", [200, 404]],
      ["/dev/outbox/%00", [404]],
    ])("GET %s answers the page or a 4xx, never 500", async (path, statuses) => {
      const response = await send(path);
      expect(statuses, `${path}: ${response.status}`).toContain(response.status);
      const body = await response.text();
      expect(body).not.toContain("Unexpected Application Error!");
    });

    it("checkout and sign-in fields with NUL are read without it: a normal answer, never 500", async () => {
      const withNul = Object.fromEntries(Object.entries(CUSTOMER).map(([name, value]) => [name, `${value}\u0000`]));
      const cart = await send("/cart", { method: "POST", body: form({ intent: "add", productKey, quantity: "1" }) });
      const cookie = cookieFrom(cart.headers.get("Set-Cookie"));
      const checkout = await send("/checkout", { method: "POST", body: form(withNul), headers: { Cookie: cookie } });
      expect(checkout.status).toBe(302);
      const [row] = await database.db.select().from(checkouts).orderBy(desc(checkouts.createdAt)).limit(1);
      expect(row.customer.email).toBe("dana@example.com");
      expect(JSON.stringify(row.customer)).not.toContain("\\u0000");

      const single = await send("/single-product-checkout", {
        method: "POST",
        body: form({ ...withNul, intent: "update", product: `${productKey}\u0000`, quantity: "1\u0000" }),
      });
      expect(single.status).toBeLessThan(500);

      const signIn = await send("/login", { method: "POST", body: form({ email: "staff@example.com\u0000", password: "\u0000\u0000" }) });
      expect(signIn.status).toBeLessThan(500);
      expect(await signIn.text()).toMatch(/role="alert"/);
    });

    it("the JSON routes read strings without control characters", async () => {
      const response = await send("/search-suggestions?q=%00");
      expect(await response.json()).toEqual(expect.anything());
      const contact = await send("/contactForm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "\u0000", email: "a\u0000@example.com", message: "\u0000" }),
      });
      expect(contact.status).toBeLessThan(500);
    });

    it("cleanText and hasControlCharacters: the one rule", () => {
      expect(cleanText("gr\u0000ill\u0001\u007f\u0085")).toBe("grill");
      expect(cleanText("line one\r\nline two\tend")).toBe("line one\r\nline two\tend");
      expect(cleanText("a\uD800b")).toBe("a\uFFFDb");
      expect(cleanText("💥 grill")).toBe("💥 grill");
      expect(hasControlCharacters("blaze-1\u0000")).toBe(true);
      expect(hasControlCharacters("blaze-1\n")).toBe(true);
      expect(hasControlCharacters("\uDC00")).toBe(true);
      expect(hasControlCharacters("blaze-4901 💥")).toBe(false);
    });

    it("the server turns a cross-site Origin into Sec-Fetch-Site, so readForm answers it", () => {
      const crossSite = neutralizeCrossSiteOrigin(
        new Request(`${TEST_ORIGIN}/contact`, { method: "POST", headers: { Origin: "https://evil.example", Host: "store.test" } }),
      );
      expect(crossSite.headers.get("Origin")).toBeNull();
      expect(crossSite.headers.get("Sec-Fetch-Site")).toBe("cross-site");
      const sameSite = new Request(`${TEST_ORIGIN}/contact`, { method: "POST", headers: { Origin: TEST_ORIGIN, Host: "store.test" } });
      expect(neutralizeCrossSiteOrigin(sameSite)).toBe(sameSite);
    });

    it("a cross-site form post is a readable 403 in the store's layout, not Remix's 500", async () => {
      const response = await send("/contact", {
        method: "POST",
        body: form({ name: "x", email: "x@example.com", message: "hi" }),
        headers: { Origin: "https://evil.example" },
      });
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(html).toContain("sent from another website");
      expect(html).toContain('class="site-header');
    });
  });

  describe("error pages in the store's layout", () => {
    it("413: a form over the size limit gets the store's page with a way back", async () => {
      const response = await send("/contact", {
        method: "POST",
        body: form({ name: "Dana", email: "dana@example.com", message: "m".repeat(200_000) }),
      });
      expect(response.status).toBe(413);
      const html = await response.text();
      expect(html).toContain('data-status="413"');
      expect(html).toContain("That form was larger than 64 KB");
      expect(html).toContain('class="site-header');
      expect(html).toContain("Back to the home page");
    });

    it("429: the page says to wait and keeps Retry-After", async () => {
      const headers = { "X-Forwarded-For": "203.0.113.77" };
      let response: Response | null = null;
      for (let attempt = 0; attempt < 40; attempt += 1) {
        response = await store.handle(
          new Request(`${TEST_ORIGIN}/contact`, {
            method: "POST",
            body: form({ name: "Dana Reyes", email: "dana@example.com", phone: "5125550142", message: `Hello number ${attempt}` }),
            headers: { ...headers, Host: "store.test" },
          }),
          testContext(runtime, { clientAddress: "203.0.113.77" }),
        );
        if (response.status === 429) break;
      }
      expect(response?.status).toBe(429);
      expect(Number(response?.headers.get("Retry-After"))).toBeGreaterThan(0);
      const html = (await response?.text()) ?? "";
      expect(html).toContain('role="alert"');
      expect(html).toContain('class="site-header');
    });

    it("404: an unknown address and an unknown product, in the layout, without the framework's screen", async () => {
      for (const path of ["/no/such/page", "/product/blaze-0000000", "/dev/outbox/not-a-uuid"]) {
        const response = await send(path);
        expect([path, response.status]).toEqual([path, 404]);
        const html = await response.text();
        expect(html).toContain('class="site-header');
        expect(html).not.toContain("Unexpected Application Error!");
      }
    });
  });

  describe("row 9: money caps", () => {
    it(`a cart line holds at most ${MAX_LINE_QUANTITY}, and the shopper is told`, async () => {
      const response = await send("/cart", { method: "POST", body: form({ intent: "add", productKey, quantity: "5000" }) });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/cart?notice=quantityCapped");
      const page = await send("/cart?notice=quantityCapped", { headers: { Cookie: cookieFrom(response.headers.get("Set-Cookie")) } });
      expect(await page.text()).toContain(`A cart line holds at most ${MAX_LINE_QUANTITY} of a product`);
    });

    it("three of the dearest grills at quantity 999: Proceed to Payment says the order is too large and records nothing", async () => {
      const dearest = await database.db
        .select({ key: products.key, priceCents: products.priceCents })
        .from(products)
        .where(arrayOverlaps(products.categories, ["Grills", "Gas Grills", "Built-In Gas Grills"]))
        .orderBy(desc(products.priceCents))
        .limit(3);
      const candidates =
        dearest.length === 3
          ? dearest
          : await database.db
              .select({ key: products.key, priceCents: products.priceCents })
              .from(products)
              .orderBy(desc(products.priceCents))
              .limit(3);
      let cookie = "";
      for (const product of candidates) {
        const added = await send("/cart", {
          method: "POST",
          body: form({ intent: "add", productKey: product.key, quantity: "999" }),
          headers: { Cookie: cookie },
        });
        expect([302, 303]).toContain(added.status);
        cookie = cookieFrom(added.headers.get("Set-Cookie"));
      }
      const cart = await send("/cart", { headers: { Cookie: cookie } });
      expect(cart.status).toBe(200);

      const [before] = await database.db.select({ n: count() }).from(checkouts);
      const response = await send("/checkout", { method: "POST", body: form(CUSTOMER), headers: { Cookie: cookie } });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain(ORDER_TOO_LARGE_MESSAGE.replace("$", "$"));
      const [after] = await database.db.select({ n: count() }).from(checkouts);
      expect(after.n).toBe(before.n);
      expect((await database.db.select({ n: count() }).from(orders))[0].n).toBe(0);
    });
  });
});
