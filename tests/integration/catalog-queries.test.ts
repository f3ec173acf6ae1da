import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCatalogFiles } from "~/catalog/catalog-files.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import {
  brandCategories,
  getProductByKey,
  listProducts,
  PAGE_SIZE,
  randomProductPerBrand,
  randomProducts,
  relatedProducts,
  searchProducts,
  typeahead,
  variationSiblings,
} from "~/catalog/queries.server";
import { CONFIGURATION_NOT_AVAILABLE, findVariant, variationOptions } from "~/catalog/variations";
import { products } from "~/db/schema";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

const files = readCatalogFiles();
const all = files.products;

describe.each(testDatabaseKinds())("catalog queries on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { catalog: true });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("loads every catalog record once, and only reloads when the files change", async () => {
    const [{ total }] = await database.db.select({ total: sql<number>`count(*)::int` }).from(products);
    expect(total).toBe(all.length);
    expect(await loadCatalogIfChanged(database.db, files)).toEqual({ loaded: false });
  });

  it("keeps the previous catalog when a reload fails half-way", async () => {
    const broken = { contentHash: "changed", products: [...all.slice(0, 10), { ...all[0] }] };
    await expect(loadCatalogIfChanged(database.db, broken)).rejects.toThrow();
    const [{ total }] = await database.db.select({ total: sql<number>`count(*)::int` }).from(products);
    expect(total).toBe(all.length);
  });

  it("lists 100 per page in catalog order with the total, for all brands and categories", async () => {
    const first = await listProducts(database.db, { brand: "all", category: "all", page: 1 });
    expect(first.total).toBe(all.length);
    expect(first.products).toHaveLength(PAGE_SIZE);
    expect(first.pageCount).toBe(Math.ceil(all.length / PAGE_SIZE));
    expect(first.products[0].key).toBe(`${all[0].brand}-${all[0].Id}`);
    const last = await listProducts(database.db, { brand: "all", category: "all", page: 9999 });
    expect(last.page).toBe(first.pageCount);
    expect(last.products.length).toBe(all.length - (first.pageCount - 1) * PAGE_SIZE);
  });

  it("filters by brand, by category, and by both; Home means every category", async () => {
    const blaze = all.filter((p) => p.brand === "blaze");
    expect((await listProducts(database.db, { brand: "blaze", category: "all", page: 1 })).total).toBe(blaze.length);
    expect((await listProducts(database.db, { brand: "blaze", category: "Home", page: 1 })).total).toBe(blaze.length);
    const gasGrills = all.filter((p) => p.Category.includes("Gas Grills"));
    expect((await listProducts(database.db, { brand: "all", category: "Gas Grills", page: 1 })).total).toBe(gasGrills.length);
    const blazeGas = gasGrills.filter((p) => p.brand === "blaze");
    const both = await listProducts(database.db, { brand: "blaze", category: "Gas Grills", page: 1 });
    expect(both.total).toBe(blazeGas.length);
    expect(both.products.every((p) => p.brand === "blaze" && p.categories.includes("Gas Grills"))).toBe(true);
  });

  it("answers an unknown brand or category with an empty list, not an error", async () => {
    expect(await listProducts(database.db, { brand: "nope", category: "all", page: 1 })).toMatchObject({ total: 0, products: [] });
    expect(await listProducts(database.db, { brand: "all", category: "Spaceships", page: 1 })).toMatchObject({ total: 0 });
  });

  it("lists a brand's categories alphabetically with Home shown as All Categories", async () => {
    const choices = await brandCategories(database.db, "blaze");
    expect(choices[0]).toEqual({ value: "all", label: "All Categories" });
    const names = choices.slice(1).map((c) => c.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    expect(names).toContain("Built-In Gas Grills");
    expect(names).not.toContain("Home");
    const expected = new Set(
      all
        .filter((p) => p.brand === "blaze")
        .flatMap((p) => p.Category)
        .filter((c) => c !== "Home"),
    );
    expect(names.length).toBe(expected.size);
  });

  it("finds a product by {brand}-{Id}, including the seasoning, and nothing for a wrong brand", async () => {
    const grill = await getProductByKey(database.db, "blaze-3159840");
    expect(grill).toMatchObject({ model: "BLZ-5LTE3-NG", priceCents: 249999, brand: "blaze" });
    expect(grill?.images.length).toBeGreaterThan(1);
    expect(await getProductByKey(database.db, "custom_product-LOVE-RUB-001")).toMatchObject({ priceCents: 1599 });
    expect(await getProductByKey(database.db, "napoleon-3159840")).toBeNull();
    expect(await getProductByKey(database.db, "../../etc")).toBeNull();
  });

  it("relates products that share a non-Home category, randomly, up to the limit", async () => {
    const related = await relatedProducts(database.db, { categories: ["Built-In Gas Grills"], excludeKey: "blaze-3159840", limit: 15 });
    expect(related).toHaveLength(15);
    expect(related.every((p) => p.categories.includes("Built-In Gas Grills") && p.key !== "blaze-3159840")).toBe(true);
    expect(await relatedProducts(database.db, { categories: ["Home"], limit: 15 })).toEqual([]);
    const orders = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      orders.add((await relatedProducts(database.db, { categories: ["Gas Grills"], limit: 10 })).map((p) => p.key).join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it("picks one random product per brand, and fills larger counts brand by brand", async () => {
    const perBrand = await randomProductPerBrand(database.db);
    const brands = new Set(all.map((p) => p.brand));
    expect(perBrand).toHaveLength(brands.size);
    expect(new Set(perBrand.map((p) => p.brand)).size).toBe(brands.size);
    const thirty = await randomProducts(database.db, 30);
    expect(thirty).toHaveLength(30);
    expect(new Set(thirty.map((p) => p.brand)).size).toBe(brands.size);
  });

  it("searches titles for every word, case-insensitively", async () => {
    const results = await searchProducts(database.db, "BLAZE  natural gas");
    const expected = all.filter((p) => ["blaze", "natural", "gas"].every((w) => p.Title.toLowerCase().includes(w)));
    expect(results.total).toBe(expected.length);
    expect(results.products.every((p) => /blaze/i.test(p.title) && /natural/i.test(p.title) && /gas/i.test(p.title))).toBe(true);
    expect((await searchProducts(database.db, "   ")).total).toBe(0);
    expect((await searchProducts(database.db, "100%_off")).total).toBe(0);
  });

  it("ranks the words as a phrase of whole words first: 'grill cover' shows grill covers, not side burner covers", async () => {
    const page = await searchProducts(database.db, "grill cover");
    expect(page.total).toBe(all.filter((p) => /grill/i.test(p.Title) && /cover/i.test(p.Title)).length);
    expect(page.products).toHaveLength(PAGE_SIZE);
    expect(page.products.every((p) => /\bgrill cover\b/i.test(p.title))).toBe(true);
    expect(page.products.filter((p) => p.categories.some((name) => /covers/i.test(name))).length).toBeGreaterThanOrEqual(95);
    // "Grills … Cover" holds "grill" only inside "Grills": after every title holding both words whole.
    const later = await searchProducts(database.db, "grill cover", { page: 2 });
    const bothWhole = [...page.products, ...later.products].map((p) => /\bgrill\b/i.test(p.title) && /\bcover\b/i.test(p.title));
    expect(bothWhole.indexOf(false)).toBeGreaterThan(bothWhole.lastIndexOf(true));
  });

  it("puts the product whose model number was typed first, even when its title does not hold it", async () => {
    const model = all.find((p) => p.Model !== "" && !p.Title.toLowerCase().includes(p.Model.toLowerCase()))!;
    const results = await searchProducts(database.db, model.Model.toLowerCase());
    expect(results.products[0].model).toBe(model.Model);
    const exact = await searchProducts(database.db, "BLZ-4LTE2-LP");
    expect(exact.products[0].model).toBe("BLZ-4LTE2-LP");
    expect((await typeahead(database.db, "blz-4lte2-lp"))[0].product.model).toBe("BLZ-4LTE2-LP");
  });

  it("suggests the best five while typing: grill covers for 'grill cov'", async () => {
    const suggestions = await typeahead(database.db, "grill cov");
    expect(suggestions).toHaveLength(5);
    expect(suggestions.every(({ product }) => /\bgrill cover/i.test(product.title))).toBe(true);
  });

  it("suggests at most five, whole-word matches (5) above partial ones (3)", async () => {
    const suggestions = await typeahead(database.db, "kamado gri");
    expect(suggestions.length).toBeLessThanOrEqual(5);
    expect(suggestions.length).toBeGreaterThan(0);
    // "kamado" is a whole word (5) and "gri" is part of "grill" (3).
    expect(suggestions[0].score).toBe(8);
    const scores = suggestions.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(await typeahead(database.db, "")).toEqual([]);
  });

  it("finds fuel-type siblings by model prefix and moves between -NG and -LP", async () => {
    const natural = (await getProductByKey(database.db, "blaze-3159840"))!;
    const siblings = await variationSiblings(database.db, natural);
    expect(siblings.map((s) => s.model)).toContain("BLZ-5LTE3-LP");
    expect(siblings.every((s) => s.brand === "blaze" && s.model.startsWith("BLZ-5LTE3"))).toBe(true);

    const options = variationOptions(natural, siblings);
    const fuel = options.find((o) => o.name === "Fuel Type");
    expect(fuel).toMatchObject({ selected: "Natural Gas", values: ["Natural Gas", "Propane"] });

    const chosen = Object.fromEntries(options.map((o) => [o.name, o.selected]));
    const propane = findVariant([natural, ...siblings], { ...chosen, "Fuel Type": "Propane" });
    expect(propane?.model).toBe("BLZ-5LTE3-LP");
    expect(propane?.key).toBe("blaze-3159837");
    expect(findVariant([natural, ...siblings], { ...chosen, "Fuel Type": "Charcoal" })).toBeNull();
    expect(CONFIGURATION_NOT_AVAILABLE).toBe("Configuration Not Available, Try different options.");
  });

  it("has no variations for brands without variation dropdowns", async () => {
    const primo = all.find((p) => p.brand === "primo" && p.Model)!;
    expect(
      await variationSiblings(database.db, {
        brand: "primo",
        model: primo.Model,
        key: `primo-${primo.Id}`,
        id: primo.Id,
        title: primo.Title,
        categories: primo.Category,
      }),
    ).toEqual([]);
  });
});
