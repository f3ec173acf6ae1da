import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreRuntime } from "~/runtime.server";
import { CACHE_ANSWER_HEADER } from "~/utils/cache-answer";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * The rendered-HTML cache says when it answered (the bench's "answered by" column reads it):
 * the same page with the same loader data is rendered once.
 */
describe("the page cache's answer header", () => {
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

  it("is absent on a page Remix rendered and says 'page' when the same page is answered from the cache", async () => {
    const first = await get("/products/all/all?answer-test=1");
    const second = await get("/products/all/all?answer-test=1");
    expect(first.status).toBe(200);
    expect(first.headers.get(CACHE_ANSWER_HEADER)).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get(CACHE_ANSWER_HEADER)).toBe("page");
    expect(await second.text()).toContain("<html");
  });
});
