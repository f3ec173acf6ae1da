import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicBaseUrl } from "~/config.server";
import { loader as robotsLoader } from "~/routes/[robots.txt]";
import { loader as sitemapLoader } from "~/routes/[sitemap.xml]";
import { loader as listLoader } from "~/routes/products.$brand.$category";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

const hostile = (path: string) => new Request(`http://evil.example${path}`, { headers: { Host: "evil.example" } });

describe("a request's Host never reaches a link", () => {
  let database: TestDatabase;
  let base: string;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    runtime = testRuntime(database);
    base = publicBaseUrl(runtime.config);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("robots.txt names the configured sitemap address", async () => {
    const body = await (
      (await robotsLoader({ request: hostile("/robots.txt"), params: {}, context: testContext(runtime) })) as Response
    ).text();
    expect(body).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(body).not.toContain("evil.example");
  });

  it("the sitemap lists configured addresses only", async () => {
    const body = await (
      (await sitemapLoader({ request: hostile("/sitemap.xml"), params: {}, context: testContext(runtime) })) as Response
    ).text();
    expect(body).toContain(`<loc>${base}/</loc>`);
    expect(body).not.toContain("evil.example");
  });

  it("list pages build their canonical link from the configured address", async () => {
    const data = (await listLoader({
      request: hostile("/products/all/all"),
      params: { brand: "all", category: "all" },
      context: testContext(runtime),
    })) as {
      origin: string;
    };
    expect(data.origin).toBe(base);
  });
});
