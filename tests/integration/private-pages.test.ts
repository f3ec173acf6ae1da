import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicBaseUrl } from "~/config.server";
import type { StoreRuntime } from "~/store-runtime";
import { declaredIndexing, INDEXING } from "~/utils/indexing";
import { privatePathsOf } from "~/utils/private-paths.server";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * Which pages search engines leave alone is declared once, by each page's
 * route (`handle = { indexing: … }`, app/utils/indexing.ts), and both things
 * a crawler reads follow from it: robots.txt, from the routes as the
 * composition root reads them at start (server/main.ts), and the page's
 * `<meta name="robots">`, rendered by root. Here on the store's real routes.
 */
describe("pages kept from search engines, as their routes declare", () => {
  let database: TestDatabase;
  let runtime: StoreRuntime;
  let store: StoreHandler;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const handler = await createStoreHandler(testRuntime(database));
    // As server/main.ts does with its build.
    runtime = { ...testRuntime(database), privatePaths: privatePathsOf(handler.build.routes) };
    store = handler;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const get = (path: string) => store.handle(new Request(`${TEST_ORIGIN}${path}`), testContext(runtime));
  const disallows = (robots: string, path: string) =>
    robots
      .split("\n")
      .filter((line) => line.startsWith("Disallow: "))
      .some((line) => path.startsWith(line.slice("Disallow: ".length)));
  const robotsMetaTags = (html: string) => [...html.matchAll(/<meta name="robots"[^>]*>/g)].map((match) => match[0]);

  it("robots.txt disallows the private pages' URLs, then names the sitemap", async () => {
    const answer = await get("/robots.txt");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(
      [
        "User-agent: *",
        "Disallow: /admin",
        "Disallow: /cart",
        "Disallow: /chatbot",
        // It covers /checkout-authorized/…, /checkout-canceled-affirm and /checkout-confirmation too.
        "Disallow: /checkout",
        "Disallow: /custom-product-checkout",
        "Disallow: /dashboard",
        "Disallow: /dev/outbox",
        "Disallow: /finding/",
        "Disallow: /login",
        "Disallow: /order-status/",
        "Disallow: /search-suggestions",
        "Disallow: /single-product-checkout",
        `Sitemap: ${publicBaseUrl(runtime.config)}/sitemap.xml`,
        "",
      ].join("\n"),
    );
  });

  it("a page's declaration shows up both in robots.txt and in the page's robots meta tag", async () => {
    const robots = await (await get("/robots.txt")).text();
    const pages: Array<{ path: string; meta: string | null; disallowed: boolean }> = [
      { path: "/cart", meta: "noindex", disallowed: true }, // "private"
      { path: "/finding/grill", meta: "noindex, follow", disallowed: true }, // "private, follow"
      { path: "/login", meta: "noindex, nofollow", disallowed: true }, // "private, nofollow"
      { path: "/compare", meta: "noindex", disallowed: false }, // "noindex"
      { path: "/", meta: null, disallowed: false },
      { path: "/order-status", meta: null, disallowed: false }, // the lookup form; an order's own page is private
    ];
    for (const { path, meta, disallowed } of pages) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(robotsMetaTags(await answer.text()), path).toEqual(meta ? [`<meta name="robots" content="${meta}"/>`] : []);
      expect(disallows(robots, path), path).toBe(disallowed);
    }
  });

  it("disallows every private page's URL, and no other page's", () => {
    const { routes } = store.build;
    const handlesOf = (route: ServerBuild["routes"][string] | undefined): unknown[] =>
      route ? [...handlesOf(route.parentId ? routes[route.parentId] : undefined), route.module.handle] : [];
    const checked = store.routes.map((route) => {
      const indexing = declaredIndexing(handlesOf(routes[route.id]));
      // A URL the route answers: each parameter (and a splat) filled in.
      const url = route.pattern.replace(/:\w+\??/g, "x").replace(/\*$/, "x");
      return {
        route: `${route.id} (${url}), declared ${indexing ?? "nothing"}`,
        privateToCrawlers: indexing !== null && INDEXING[indexing].disallow,
        disallowed: runtime.privatePaths.some((prefix) => url.startsWith(prefix)),
      };
    });
    expect(checked.filter((each) => each.privateToCrawlers).length).toBeGreaterThan(15);
    expect(checked.filter((each) => each.disallowed !== each.privateToCrawlers)).toEqual([]);
  });
});
