import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreRuntime } from "~/store-runtime";
import { CACHE_ANSWER_HEADER } from "~/utils/cache-answer";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * A page Remix renders says no cache answered (the bench's "answered by" column reads the header):
 * only the shared cache of cookie-less public answers (server/shared-cache.ts) keeps pages, so a
 * shopper with a cookie gets a fresh render each time, streamed in full.
 */
describe("the answer header of a rendered page", () => {
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
