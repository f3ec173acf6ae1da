import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreRuntime } from "~/store-runtime";
import { CACHE_ANSWER_HEADER } from "~/utils/cache-answer";
import { createMarkupCache } from "~/http/markup-cache.server";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * A page Remix renders says no cache answered (the bench's "answered by" column reads the header):
 * only the shared cache of cookie-less public answers (server/shared-cache.ts) keeps pages, so a
 * shopper with a cookie gets a fresh render each time, streamed in full.
 */
let database: TestDatabase;
let runtime: StoreRuntime;
let store: StoreHandler;

beforeAll(async () => {
  database = await createTestDatabase("pglite", { catalog: true });
  runtime = testRuntime(database);
  store = await createStoreHandler(runtime);
});
afterAll(async () => {
  await database?.dispose();
});

describe("the answer header of a rendered page", () => {
  const get = (path: string) =>
    store.handle(
      new Request(`${TEST_ORIGIN}${path}`, { headers: { Host: new URL(TEST_ORIGIN).host, Cookie: "returning=1" } }),
      testContext(runtime),
    );

  it("is absent on every render of the same page for a shopper with a cookie", async () => {
    for (let visit = 0; visit < 2; visit++) {
      const page = await get("/products/all/all?answer-test=1");
      expect(page.status).toBe(200);
      expect(page.headers.get(CACHE_ANSWER_HEADER)).toBeNull();
      const html = await page.text();
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html).toContain("</html>");
    }
  });
});

/**
 * Parts the server writes from its markup cache (decision 031: product cards, the menus, the footer's
 * reviews, a product's specifications) are the markup the page draws without the cache, byte for byte:
 * React hydrates them in the browser as if drawn this time. Each page is drawn without a cache, then
 * twice with one (the first fills it, the second writes from it).
 */
describe("pages with kept markup", () => {
  const html = async (path: string, markupCache?: ReturnType<typeof createMarkupCache>) => {
    const page = await store.handle(
      // A crawler's page is written once everything is rendered: its chunks do not depend on when the product's description arrives.
      new Request(`${TEST_ORIGIN}${path}`, {
        headers: { Host: new URL(TEST_ORIGIN).host, Cookie: "returning=1", "User-Agent": "Googlebot/2.1" },
      }),
      testContext(runtime, { markupCache }),
    );
    expect(page.status).toBe(200);
    return page.text();
  };
  const afterThePage = () => new Promise((resolve) => setImmediate(resolve));

  it.each([
    "/products/all/all",
    "/products/all/all?page=2",
    "/finding/grill",
    "/product/blaze-3159840",
    "/",
    "/love-rub",
    "/shipping-policy",
  ])("%s is the same page from the cache", async (path) => {
    // The product's description is generated on its first visit and kept: the visits compared see the same one.
    await html(path);
    const drawn = await html(path);
    const cache = createMarkupCache();
    expect(await html(path, cache)).toBe(drawn);
    await afterThePage();
    expect(cache.size.entries).toBeGreaterThan(0);
    expect(await html(path, cache)).toBe(drawn);
  });

  it("keeps a card apart for each stock line it shows", async () => {
    const cache = createMarkupCache();
    await html("/products/all/all", cache);
    await afterThePage();
    const before = await html("/products/all/all", cache);
    const [productKey] = /href="\/product\/([^"]+)" class="product-card__link"/.exec(before)!.slice(1);
    await database.executeSql(
      `insert into product_stock (product_key, policy, on_hand, reserved) values ('${productKey}', 'tracked', 0, 0)
       on conflict (product_key) do update set policy = 'tracked', on_hand = 0, reserved = 0`,
    );
    const after = await html("/products/all/all", cache);
    expect(after).toBe(await html("/products/all/all"));
    expect(after).not.toBe(before);
    expect(after).toContain("Out of stock");
  });
});
