import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_DIR, readCatalogFiles } from "~/catalog/catalog-files.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import { getProductByKey } from "~/catalog/queries.server";
import { products } from "~/db/schema";
import { expectErrorLog } from "../support/error-log";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

/** A brand file that fails is reported and skipped; that brand keeps its last good data. */
const real = readCatalogFiles(CATALOG_DIR).products;
const blaze = real.filter((record) => record.brand === "blaze").slice(0, 3);
const napoleon = real.filter((record) => record.brand === "napoleon").slice(0, 2);

describe.each(testDatabaseKinds())("catalog files on %s", (kind) => {
  let database: TestDatabase;
  let dir: string;
  const write = (file: string, content: unknown) =>
    writeFileSync(path.join(dir, file), typeof content === "string" ? content : JSON.stringify(content));
  const countOf = async (brand: string) =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(products)
        .where(eq(products.brand, brand))
    )[0].n;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dir = mkdtempSync(path.join(tmpdir(), "catalog-"));
    write("blaze.json", blaze);
    write("napoleon.json", napoleon);
    const first = await loadCatalogIfChanged(database.db, readCatalogFiles(dir));
    expect(first).toMatchObject({ loaded: true, count: 5, kept: [] });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.dispose();
  });

  it("reports each file that fails, with why, and uses the others", () => {
    write("blaze.json", "[{ not json");
    write("napoleon.json", napoleon);
    const files = readCatalogFiles(dir);
    expect(files.problems).toEqual([
      { brand: "blaze", file: "blaze.json", message: expect.stringContaining("blaze.json is not valid JSON") },
    ]);
    expect(files.products.map((record) => record.brand)).toEqual(["napoleon", "napoleon"]);

    write("blaze.json", { products: blaze });
    expect(readCatalogFiles(dir).problems?.[0].message).toBe("blaze.json does not hold a list of products");
    write("blaze.json", [blaze[0], { ...blaze[1], Price: "free" }]);
    expect(readCatalogFiles(dir).problems?.[0].message).toMatch(/^blaze\.json record 1: Price /);
  });

  it("keeps the last good products of a failed brand and updates the others; the store keeps serving", async () => {
    const errors = expectErrorLog();
    write("blaze.json", "[{ not json");
    write("napoleon.json", [{ ...napoleon[0], Title: "Napoleon renamed" }]);
    const result = await loadCatalogIfChanged(database.db, readCatalogFiles(dir));
    expect(result).toEqual({ loaded: true, count: 1, kept: [{ brand: "blaze", count: 3 }] });
    expect(errors.messages()).toContainEqual(expect.stringContaining("Keeping the last good blaze products"));
    expect(await countOf("blaze")).toBe(3);
    expect(await countOf("napoleon")).toBe(1);
    expect(await getProductByKey(database.db, `blaze-${blaze[0].Id}`)).toMatchObject({ title: blaze[0].Title });

    // Fixed: the brand is loaded from its file again.
    write("blaze.json", blaze.slice(0, 1));
    expect(await loadCatalogIfChanged(database.db, readCatalogFiles(dir))).toMatchObject({ loaded: true, count: 2, kept: [] });
    expect(await countOf("blaze")).toBe(1);
  });
});
