import { describe, expect, it } from "vitest";
import { grillNeed, heaterNeed, heatersNeeded, parseGrillSearch, parseHeaterSearch } from "./sizing";

describe("heater sizing", () => {
  it("a 400 sq ft covered patio in a moderate climate needs 8,000 W or about 28,000 BTU", () => {
    const need = heaterNeed(400, true, "moderate");
    expect(need).toMatchObject({ watts: 8000, btu: 28000 });
    expect(need.rule).toBe(
      "400 sq ft × 20 W per sq ft for a covered patio = about 8,000 W of electric heat, or 28,000 BTU per hour of gas heat (1 W = 3.412 BTU/h).",
    );
  });
  it("an open patio needs half as much again, a cold climate 30% more, a mild one 20% less", () => {
    expect(heaterNeed(400, false, "moderate").watts).toBe(12000);
    expect(heaterNeed(400, true, "cold").watts).toBe(10400);
    expect(heaterNeed(400, true, "mild").watts).toBe(6400);
    expect(heaterNeed(400, false, "cold").rule).toContain("× 1.5 because it is open to wind and sky × 1.3 for cold winters");
  });
  it("says how many of a heater meet the need", () => {
    const need = heaterNeed(400, true, "moderate");
    expect(heatersNeeded(need, { watts: 6000 })).toBe(2);
    expect(heatersNeeded(need, { btu: 40000 })).toBe(1);
    expect(heatersNeeded(need, {})).toBeNull();
  });
  it("reads an area or length × width, open or covered", () => {
    expect(parseHeaterSearch(new URLSearchParams("length=20&width=20&covered=open&climate=cold")).need).toMatchObject({
      areaSqFt: 400,
      covered: false,
      climate: "cold",
    });
    expect(parseHeaterSearch(new URLSearchParams("area=lots")).errors.area).toMatch(/square feet/);
    expect(parseHeaterSearch(new URLSearchParams("")).need).toBeNull();
  });
});

describe("grill sizing", () => {
  it("four people, rarely hosting: at least 320 sq in and 4 burgers", () => {
    expect(grillNeed(4, "rarely")).toMatchObject({ areaSqIn: 320, burgers: 4 });
    expect(grillNeed(2, "rarely").areaSqIn).toBe(300);
  });
  it("six people hosting weekly: 720 sq in, 9 burgers, and the rule in words", () => {
    const need = grillNeed(6, "weekly");
    expect(need).toMatchObject({ areaSqIn: 720, burgers: 9 });
    expect(need.rule).toBe(
      "6 people × 80 sq in each (at least 300 sq in) × 1.5 because you host every week = a main grilling area of at least 720 sq in, holding 9 burgers at once.",
    );
  });
  it("reads the form and refuses nonsense", () => {
    expect(parseGrillSearch(new URLSearchParams("people=8&hosting=monthly")).need).toMatchObject({ areaSqIn: 800, burgers: 10 });
    expect(parseGrillSearch(new URLSearchParams("people=2.5")).errors.people).toBeDefined();
  });
});
