import { describe, expect, it } from "vitest";
import { readCatalogFiles } from "./catalog-files.server";
import { distinguishCards, productFacts } from "./card-facts.server";
import { productColour } from "./colour";

const facts = (Title: string, Specifications: Array<Record<string, string>> = []) => productFacts({ Title, Specifications });

describe("productFacts", () => {
  it("says colour, fuel, size and stand, from the title first", () => {
    expect(facts("Alfresco ALXE 56-Inch Freestanding Propane All Grill With Sear Zone And Rotisserie in Raspberry Red - ALXE-56BFGC-LP-S3027")).toEqual([
      "Raspberry Red",
      "Propane",
      '56"',
      "Freestanding",
    ]);
    expect(facts("Ledge Lounger Autograph Chaise Lounge - Granite Grey")).toEqual(["Granite Grey"]);
    expect(facts("Delta Heat 32-Inch Built-In Natural Gas Teppanyaki Griddle - Black Control Panel - DHTG32-KN")).toEqual([
      "Black Control Panel",
      "Natural gas",
      '32"',
      "Built-in",
    ]);
    expect(facts("Fire Magic 24-Inch Right Hinge Outdoor Rated Dual Tap Kegerator - 3594-DR")).toEqual(['24"', "Right hinge"]);
  });

  it("tells the built-in grill head from the same grill on a deluxe cart (ALXE-42SZ, ALXE-42SZCD)", () => {
    const spec: Array<Record<string, string>> = [{ "Primary Color": "Stainless Steel" }, { "Fuel Type": "Propane" }];
    expect(facts("Alfresco ALXE 42-Inch Built-In Propane Gas Grill With Sear Zone And Rotisserie - ALXE-42SZ-LP", spec)).toEqual([
      "Stainless",
      "Propane",
      '42"',
      "Built-in",
    ]);
    expect(facts("Alfresco ALXE 42-Inch Propane Gas Grill On Deluxe Cart With Sear Zone And Rotisserie - ALXE-42SZCD-LP", spec)).toEqual([
      "Stainless",
      "Propane",
      '42"',
      "Deluxe cart",
    ]);
  });

  it("falls back on the specifications, and keeps to the product's own fuel, not what it is for", () => {
    expect(facts("Napoleon Rogue XT 425 SIB Grill", [{ "Fuel Type": "Natural Gas" }, { Width: '51"' }, { Configuration: "Freestanding" }])).toEqual([
      "Natural gas",
      '51" wide',
      "Freestanding",
    ]);
    expect(facts("Fire Magic Heavy Duty Rotisserie Kit For Fire Magic Aurora A660 Gas Grills & 30-Inch Charcoal Grills")).toEqual(['30"']);
  });

  it("reads the colour as the catalogue names it, with a swatch for the drawing", () => {
    expect(productColour("Blaze 38 Inch Round Concrete Propane Fire Bowl in Phantom")).toMatchObject({ name: "Phantom", part: false });
    expect(productColour("A grill", [{ "Primary Color": "Stainless Steel" }])).toEqual({ name: "Stainless Steel", swatch: null, part: false });
    expect(productColour("A grill - Model-1")).toBeNull();
  });
});

describe("distinguishCards", () => {
  const card = (id: string, title: string, model: string, priceCents: number, own: string[]) => ({ id, title, model, priceCents, facts: own });

  it("adds the words that tell two otherwise alike cards apart, and the model or Id when nothing does", () => {
    const deluxe = card("1", "Alfresco ALXE 56-Inch Freestanding Propane Deluxe Grill With Rotisserie And Side Burner in Traffic Yellow - ALXE-56C-LP-S1023", "ALXE-56C-LP-S1023", 1467500, ["Traffic Yellow", "Propane", '56"', "Freestanding"]);
    const searZone = card("2", "Alfresco ALXE 56-Inch Freestanding Propane Deluxe Grill With Sear Zone, Rotisserie, And Side Burner in Traffic Yellow - ALXE-56SZC-LP-S1023", "ALXE-56SZC-LP-S1023", 1467500, ["Traffic Yellow", "Propane", '56"', "Freestanding"]);
    const twin = card("3", "Fire Magic Echelon Diamond E660i 30-Inch Freestanding Natural Gas Grill", "", 1121040, ["Natural gas"]);
    const twinCopy = { ...twin, id: "4" };
    const other = card("5", "Blaze Grill Light - BLZ-1", "BLZ-1", 1467500, []);
    const shown = distinguishCards([deluxe, searZone, twin, twinCopy, other]).map((c) => c.facts);
    expect(shown).toEqual([
      ["Traffic Yellow", "Propane", '56"', "Freestanding"],
      ["Traffic Yellow", "Propane", '56"', "Freestanding", "Sear Zone"],
      ["Natural gas", "Item 3"],
      ["Natural gas", "Item 4"],
      [],
    ]);
  });

  it("leaves no two cards of any list of the catalogue reading the same", () => {
    const { products } = readCatalogFiles();
    const lists = new Map<string, typeof products>();
    for (const product of products) {
      for (const name of [...product.Category, "all"]) lists.set(name, [...(lists.get(name) ?? []), product]);
    }
    const alike: string[] = [];
    for (const [name, list] of lists) {
      for (let start = 0; start < list.length; start += 100) {
        const cards = distinguishCards(
          list.slice(start, start + 100).map((p) => ({ id: p.Id, title: p.Title, model: p.Model, priceCents: Math.round(p.Price * 100), facts: productFacts(p) })),
        );
        const seen = new Set<string>();
        for (const c of cards) {
          // What a phone shows of the title: its first two lines, about 30 characters.
          const text = `${c.title.slice(0, 30)} | ${c.facts.join(" · ")} | ${c.priceCents}`;
          if (seen.has(text)) alike.push(`${name}, page ${start / 100 + 1}: ${text}`);
          seen.add(text);
        }
      }
    }
    expect(alike).toEqual([]);
  });
});
