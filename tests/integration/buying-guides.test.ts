import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProductByKey } from "~/catalog/queries.server";
import { cutoutFits, parseFitSearch } from "~/guides/fit";
import { findByCutout } from "~/guides/fit.server";
import { grillNeed, heaterNeed } from "~/guides/sizing";
import { grillsFor, heatersFor } from "~/guides/sizing.server";
import { accessoriesForGrill, grillsForAccessory, productFitFacts } from "~/guides/fits.server";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

describe.each(testDatabaseKinds())("buying guides on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { catalog: true });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("stores the normalized specifications at load", async () => {
    const [row] = await database.db.query.products.findMany({ where: (p, { eq }) => eq(p.key, "blaze-2973501"), limit: 1 });
    expect(row.specValues).toMatchObject({ cutoutWidth: 30.625, cutoutDepth: 21.25, cutoutHeight: 8.5, fuelType: "Propane" });
  });

  it("finds built-in grills for an opening, snuggest first, every one within the rule", async () => {
    const query = parseFitSearch(new URLSearchParams("width=30 3/4&depth=21 1/4&height=10")).query;
    const answer = await findByCutout(database.db, query);
    expect(answer.total).toBeGreaterThan(5);
    const keys = answer.results.map((product) => product.key);
    expect(keys).toContain("blaze-2973501");
    for (const product of answer.results) {
      expect(cutoutFits(product.cutout, { width: 30.75, depth: 21.25, height: 10 })).toBe(true);
      const stored = await getProductByKey(database.db, product.key);
      expect(stored?.categories).toContain("Built-In Grills");
    }
    const snug = answer.results.map((product) => product.snugness);
    expect(snug).toEqual([...snug].sort((a, b) => a - b));
  });

  it("filters by brand, fuel and price", async () => {
    const query = parseFitSearch(new URLSearchParams("width=30 3/4&depth=21 1/4&brand=blaze&fuel=Natural Gas&max=3000")).query;
    const answer = await findByCutout(database.db, query);
    expect(answer.results.length).toBeGreaterThan(0);
    for (const product of answer.results) {
      expect(product.brand).toBe("blaze");
      expect(product.fuelType).toBe("Natural Gas");
      expect(product.priceCents).toBeLessThanOrEqual(300000);
    }
  });

  it("uses a picked grill's cutout, by model number, and suggests grills for words", async () => {
    const picked = await findByCutout(database.db, parseFitSearch(new URLSearchParams("grill=blz-4lte2-lp")).query);
    expect(picked.picked?.key).toBe("blaze-2973501");
    expect(picked.opening).toEqual({ width: 30.625, depth: 21.25, height: 8.5 });
    expect(picked.results.map((product) => product.key)).toContain("blaze-2973507");
    expect(picked.results.map((product) => product.key)).not.toContain("blaze-2973501");

    const words = await findByCutout(database.db, parseFitSearch(new URLSearchParams("grill=Premium LTE 32")).query);
    expect(words.picked).toBeNull();
    expect(words.suggestions.length).toBeGreaterThan(0);
  });

  it("lists the accessories that fit a grill, and the grills an accessory fits", async () => {
    const grill = await getProductByKey(database.db, "american_made_grills-3080621");
    const accessories = (await accessoriesForGrill(database.db, productFitFacts(grill!))).map((product) => product.key);
    expect(accessories).toContain("american_made_grills-3084347");
    expect(accessories).toContain("american_made_grills-3084389");
    expect(accessories).not.toContain("american_made_grills-3084350");

    const cover = await getProductByKey(database.db, "american_made_grills-3084347");
    const grills = (await grillsForAccessory(database.db, productFitFacts(cover!))).map((product) => product.key);
    expect(grills).toEqual(expect.arrayContaining(["american_made_grills-3080621", "american_made_grills-3080636"]));
    expect(grills).not.toContain("american_made_grills-3080627");
    expect(await accessoriesForGrill(database.db, productFitFacts(cover!))).toEqual([]);
  });

  it("lists heaters for a patio with how many of each, and grills big enough for a crowd", async () => {
    const heaters = await heatersFor(database.db, heaterNeed(400, true, "moderate"));
    expect(heaters.length).toBeGreaterThan(5);
    for (const heater of heaters) {
      expect(heater.count).toBeGreaterThanOrEqual(1);
      const output = heater.specValues.watts
        ? (heater.specValues.watts as number) * (heater.count ?? 0)
        : (heater.specValues.btu as number) * (heater.count ?? 0);
      expect(output).toBeGreaterThanOrEqual(heater.specValues.watts ? 8000 : 28000);
    }
    expect(heaters[0].count).toBeLessThanOrEqual(heaters[heaters.length - 1].count ?? 0);

    const { grills, total } = await grillsFor(database.db, grillNeed(8, "weekly"), "Propane");
    expect(total).toBeGreaterThan(5);
    for (const grill of grills) {
      expect(grill.specValues.mainGrillingArea).toBeGreaterThanOrEqual(960);
      expect(grill.specValues.fuelType).toBe("Propane");
    }
  });
});
