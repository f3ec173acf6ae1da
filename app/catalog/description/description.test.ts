import { describe, expect, it } from "vitest";
import { LEGAL_MARKER, composeDescription, splitDescription, type DescriptionInput } from "./index";
import { LOVE_RUB } from "../custom-product";

// Real record: delta.json, Id 3051843 (specifications abridged, noise dropped).
const deltaGrill: DescriptionInput = {
  Id: "3051843",
  brand: "delta",
  Model: "DHBQ26G-DN",
  Title: "Delta Heat 26-Inch 2-Burner Built-In Natural Gas Grill - DHBQ26G-DN",
  Category: ["Home", "Outdoor Kitchens", "Built-In Grills", "Built-In Gas Grills"],
  Specifications: [
    { Class: "Premium" },
    { "Fuel Type": "Natural Gas" },
    { "Cutout Width": '24 1/2"' },
    { "Cutout Depth": '19 3/4"' },
    { "Cutout Height": '9 1/2"' },
    { Configuration: "Built-In" },
    { "Exterior Material": "Stainless Steel" },
    { "Number Of Main Burners": "2 Burners" },
    { "Grilling Surface BTUs": "33000" },
    { "Main Grilling Area": "420 Sq. Inches" },
    { "Made In USA": "Yes" },
  ],
};

// Real record: ledge_lounger.json, Id 3161598 (no gas, no specs used).
const chaise: DescriptionInput = {
  Id: "3161598",
  brand: "ledge_lounger",
  Model: "LL-AG-C-GG",
  Title: "Ledge Lounger Autograph Chaise Lounge - Granite Grey",
  Category: ["Home", "Outdoor Living", "Outdoor Patio Furniture", "Outdoor Chaise Lounge Furniture"],
  Specifications: [{ "Main Material": "Polyethylene" }],
};

describe("composeDescription", () => {
  const text = composeDescription(deltaGrill);

  it("names the key specifications in 3-4 paragraphs before the marker", () => {
    const { body } = splitDescription(text);
    const paragraphs = body.split("\n\n");
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    expect(paragraphs.length).toBeLessThanOrEqual(4);
    expect(body).toContain("natural gas");
    expect(body).toContain("2 main burners");
    expect(body).toContain("33000 BTUs");
    expect(body).toContain("420 Sq. Inches");
    expect(body).toContain('24 1/2" W x 9 1/2" H x 19 3/4" D');
    expect(body).toContain("made in the USA");
    expect(body).not.toContain(LEGAL_MARKER);
  });

  it("puts the marker on its own line after a blank line, then the legal section", () => {
    expect(text).toContain(`\n\n${LEGAL_MARKER}\n`);
    const { legal } = splitDescription(text);
    expect(legal).toContain("Proposition 65");
    expect(legal).toMatch(/qualified, licensed installer/);
    expect(legal).toMatch(/illustrations/);
    expect(legal).toMatch(/may change without notice/);
  });

  it("has no gas installation warning for non-gas products", () => {
    const { legal } = splitDescription(composeDescription(chaise));
    expect(legal).toContain("Proposition 65");
    expect(legal).not.toMatch(/licensed installer/);
  });

  it("is deterministic and varies wording between products", () => {
    expect(composeDescription(deltaGrill)).toBe(text);
    const intros = new Set(
      ["1", "2", "3", "4", "5", "6", "7", "8"].map(
        (Id) => splitDescription(composeDescription({ ...deltaGrill, Id })).body.split("\n\n")[0]
      )
    );
    expect(intros.size).toBeGreaterThan(1);
  });

  it("describes the seasoning from its specifications", () => {
    const { body, legal } = splitDescription(LOVE_RUB.Description);
    expect(body).toContain("6 oz (170 g)");
    expect(body).toContain("smoked paprika");
    expect(legal).toContain("allergen");
    expect(legal).not.toMatch(/licensed installer/);
  });
});

describe("splitDescription", () => {
  it("returns everything as body when there is no marker", () => {
    expect(splitDescription("  Just text.  ")).toEqual({ body: "Just text.", legal: "" });
  });

  it("splits at the marker line only", () => {
    expect(splitDescription(`Body about ${LEGAL_MARKER} inline.\n\n${LEGAL_MARKER}\nLine 1\nLine 2`)).toEqual({
      body: `Body about ${LEGAL_MARKER} inline.`,
      legal: "Line 1\nLine 2",
    });
  });
});
