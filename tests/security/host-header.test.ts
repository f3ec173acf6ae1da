import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, publicBaseUrl } from "~/config.server";
import { loader as robotsLoader } from "~/routes/[robots.txt]";
import { loader as sitemapLoader } from "~/routes/[sitemap.xml]";
import { loader as listLoader } from "~/routes/products.$brand.$category";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { useTestRuntime } from "../support/test-runtime";

const hostile = (path: string) => new Request(`http://evil.example${path}`, { headers: { Host: "evil.example" } });

describe("a request's Host never reaches a link", () => {
  let database: TestDatabase;
  const base = publicBaseUrl(getConfig());
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    useTestRuntime(database);
  });
  afterAll(async () => {
    globalThis.__storeRuntime = undefined;
    await database?.dispose();
  });

  it("robots.txt names the configured sitemap address", async () => {
    const body = await ((await robotsLoader()) as Response).text();
    expect(body).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(body).not.toContain("evil.example");
  });

  it("the sitemap lists configured addresses only", async () => {
    const body = await ((await sitemapLoader()) as Response).text();
    expect(body).toContain(`<loc>${base}/</loc>`);
    expect(body).not.toContain("evil.example");
  });

  it("list pages build their canonical link from the configured address", async () => {
    const data = (await listLoader({ request: hostile("/products/all/all"), params: { brand: "all", category: "all" }, context: {} })) as {
      origin: string;
    };
    expect(data.origin).toBe(base);
  });
});
