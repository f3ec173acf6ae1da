import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildSpecFieldReport, formatSpecFieldReport } from "./import/spec-report";
import type { CatalogProduct } from "./product";
import {
  formatInches,
  formatSpecValue,
  normalizeSpecs,
  parseBtu,
  parseCount,
  parseInches,
  parseSquareFeet,
  parseSquareInches,
  parseWatts,
  parseYesNo,
} from "./spec-values";

describe("parsers", () => {
  it.each([
    ['29 3/8"', 29.375],
    ['31.875"', 31.875],
    ["36-Inch", 36],
    ["36 Inches", 36],
    ["36 inch", 36],
    ['7/8"', 0.875],
    ["24", 24],
    ['27 9/20"', 27.45],
    ["1 Inch", 1],
  ])("reads %s as %d inches", (text, inches) => expect(parseInches(text)).toBe(inches));

  it.each(['16 1/2" W/ 7/8 Inch Notch Cut Out', "", "N/A", "about 30", '30 5/4"', "0"])("leaves %j unread", (text) =>
    expect(parseInches(text)).toBeNull(),
  );

  it("reads areas, BTU, watts, counts and yes/no", () => {
    expect(parseSquareInches("770 Sq. Inches")).toBe(770);
    expect(parseSquareInches("516 1/2 Sq. Inches")).toBe(516.5);
    expect(parseSquareInches("119 Sq.Inches")).toBe(119);
    expect(parseSquareInches("30 X 18 Sq. Inches")).toBe(540);
    expect(parseSquareInches("big")).toBeNull();
    expect(parseSquareFeet("160 Sq. Ft.")).toBe(160);
    expect(parseSquareFeet("16 Ft. Diameter")).toBeNull();
    expect(parseBtu("60,000 BTUs")).toBe(60000);
    expect(parseBtu("82500")).toBe(82500);
    expect(parseBtu("60,000 - 74,999")).toBeNull();
    expect(parseBtu("N/A")).toBeNull();
    expect(parseWatts("6000")).toBe(6000);
    expect(parseWatts("2,300 W")).toBe(2300);
    expect(parseCount("3 Burners")).toBe(3);
    expect(parseCount("32")).toBe(32);
    expect(parseCount("Single Burner")).toBeNull();
    expect(parseYesNo("Yes")).toBe(true);
    expect(parseYesNo("No")).toBe(false);
    expect(parseYesNo("Maybe")).toBeNull();
  });

  it("prefers Cutout over the older Cut Out spelling and skips empty values", () => {
    const values = normalizeSpecs([
      { "Cut Out Width": '28 1/2"' },
      { "Cutout Width": '30 1/4"' },
      { "Burger Count": "" },
      { "Fuel Type": "Propane" },
      { "Main Grilling Area": "770 Sq. Inches" },
    ]);
    expect(values).toEqual({ cutoutWidth: 30.25, fuelType: "Propane", mainGrillingArea: 770 });
  });

  it("formats values for people", () => {
    expect(formatInches(30.25)).toBe("30 1/4");
    expect(formatInches(27.45)).toBe("27.45");
    expect(formatSpecValue("cutoutWidth", 29.375)).toBe("29 3/8 in");
    expect(formatSpecValue("btu", 60000)).toBe("60,000 BTU");
    expect(formatSpecValue("madeInUsa", false)).toBe("No");
  });
});

describe("the real catalogue", () => {
  const catalogDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../catalog");
  const products: CatalogProduct[] = readdirSync(catalogDir)
    .filter((file) => file.endsWith(".json") && file !== "import-report.json")
    .flatMap((file) => JSON.parse(readFileSync(path.join(catalogDir, file), "utf8")) as CatalogProduct[]);
  const report = buildSpecFieldReport(products);

  it("reads nearly every dimension, area, count and BTU, and lists each text it could not read", () => {
    for (const field of ["width", "depth", "height", "cutoutWidth", "cutoutDepth", "cutoutHeight", "mainGrillingArea", "totalGrillingArea"] as const) {
      const { present, parsed, unreadable } = report[field];
      expect(present, field).toBeGreaterThan(500);
      expect(parsed + unreadable.reduce((sum, entry) => sum + entry.count, 0), field).toBe(present);
      expect(parsed / present, field).toBeGreaterThan(0.99);
    }
    expect(report.cutoutWidth.unreadable).toEqual([{ text: '16 1/2" W/ 7/8 Inch Notch Cut Out', count: 2 }]);
    expect(report.cutoutDepth.parsed).toBe(report.cutoutDepth.present);
    expect(report.burgerCount.parsed).toBe(report.burgerCount.present);
    expect(report.mainBurners.parsed).toBe(report.mainBurners.present);
    expect(report.grillingBtu.parsed).toBe(report.grillingBtu.present);
    expect(report.fuelType.parsed).toBe(report.fuelType.present);
    expect(report.heatingArea.unreadable.map((entry) => entry.text)).toContain("16 Ft. Diameter");
    expect(report.watts.parsed).toBeGreaterThan(30);
    expect(report.grillModel.parsed).toBeGreaterThan(300);
    expect(report.collection.parsed).toBeGreaterThan(1000);
  });

  it("prints one line per field with its unreadable texts", () => {
    const text = formatSpecFieldReport(report);
    expect(text).toMatch(/Cutout width \(in\)\s+\d+ \/ \d+/);
    expect(text).toContain('unreadable ×2: "16 1/2\\" W/ 7/8 Inch Notch Cut Out"');
  });
});
