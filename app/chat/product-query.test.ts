import { describe, expect, it } from "vitest";
import { numberPattern, parseProductQuery, queryLabel, singularStem, titleMatchesTerm, type QueryTerm } from "./product-query";

const inch = (value: string): Extract<QueryTerm, { kind: "number" }> => ({ kind: "number", value, unit: "inch" });

describe("parseProductQuery", () => {
  it("keeps the product words of a question and reads `40 inch` as a size", () => {
    const query = parseProductQuery("do you have a 40 inch natural gas grill");
    expect(query.terms).toEqual([
      inch("40"),
      { kind: "word", text: "natural" },
      { kind: "word", text: "gas" },
      { kind: "word", text: "grill" },
    ]);
    expect(queryLabel(query.terms)).toBe("40-inch natural gas grill");
    expect(query.maxPriceCents).toBeNull();
  });

  it("reads every way of writing a size the same", () => {
    for (const text of ['40" grill', "40-inch grill", "40in grill", "40 in. grill", "40 Inches grill", "40”  grill"]) {
      expect(parseProductQuery(text).terms[0]).toEqual(inch("40"));
    }
  });

  it("reads burner counts, plurals, aliases and a price cap", () => {
    const query = parseProductQuery("Any 5 burner NG grills under $3,000?");
    expect(query.terms).toEqual([
      { kind: "number", value: "5", unit: "burner" },
      { kind: "word", text: "natural" },
      { kind: "word", text: "gas" },
      { kind: "word", text: "grill" },
    ]);
    expect(query.maxPriceCents).toBe(300_000);
    expect(parseProductQuery("patio heaters below 2k").maxPriceCents).toBe(200_000);
  });

  it("keeps the question's word order and reads a wish for low or high prices", () => {
    const query = parseProductQuery("cheapest grill cover for a 40 inch blaze");
    expect(queryLabel(query.terms)).toBe("grill cover 40-inch blaze");
    expect(query.priceOrder).toBe("low");
    expect(parseProductQuery("most expensive pizza oven").priceOrder).toBe("high");
    expect(parseProductQuery("pizza oven").priceOrder).toBeNull();
  });

  it("leaves out small talk and the words of other topics", () => {
    expect(parseProductQuery("hi, how long does shipping take?").terms).toEqual([]);
    expect(parseProductQuery("Can I return my order please").terms).toEqual([]);
  });

  it("stays bounded for a huge question", () => {
    const query = parseProductQuery("blaze grill heater pizza oven cover kamado smoker fridge ".repeat(500));
    expect(query.terms.length).toBeLessThanOrEqual(8);
  });
});

describe("singularStem", () => {
  it("gives a stem found in both spellings", () => {
    expect(singularStem("grills")).toBe("grill");
    expect(singularStem("benches")).toBe("bench");
    expect(singularStem("accessories")).toBe("accessor");
    expect(singularStem("gas")).toBe("gas");
    expect(singularStem("glass")).toBe("glass");
  });
});

describe("number patterns", () => {
  it("match a size however the title writes it, and never inside another number", () => {
    const forty = inch("40");
    for (const title of ["Blaze 40-Inch Grill", "Napoleon 40 Inch Grill", 'Grill 40" wide', "Grill 40 in. wide", "40-In Grill"]) {
      expect(titleMatchesTerm(title, forty), title).toBe(true);
    }
    for (const title of ["Grill in Blue - ALXE-56-NG-S4005", "140-Inch Island", "40.5-Inch Grill", "Grill 40 burners"]) {
      expect(titleMatchesTerm(title, forty), title).toBe(false);
    }
  });

  it("match a bare number and a burner count on their own", () => {
    expect(titleMatchesTerm("Blaze 5-Burner Grill", { kind: "number", value: "5", unit: "burner" })).toBe(true);
    expect(titleMatchesTerm("Blaze 15-Burner Grill", { kind: "number", value: "5", unit: "burner" })).toBe(false);
    expect(titleMatchesTerm("Series 40 Grill", { kind: "number", value: "40", unit: null })).toBe(true);
    expect(titleMatchesTerm("S4005 Grill", { kind: "number", value: "40", unit: null })).toBe(false);
    expect(numberPattern({ kind: "number", value: "2.5", unit: null })).toContain(String.raw`2\.5`);
  });
});
