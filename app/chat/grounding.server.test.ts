import { describe, expect, it } from "vitest";
import {
  buildSystemPrompt,
  displayedBrandNames,
  MAX_PROMPT_CATEGORIES,
  SYSTEM_PROMPT_MAX_CHARS,
  type ProductMatch,
} from "./grounding.server";
import { POLICIES } from "~/content/policies";
import { DEFECTIVE_FACTS, DELIVERY_FACTS, RETURN_FACTS } from "./store-facts";

const store = { name: "Outdoor Kitchen Outlet", phone: "(877) 555-0142", email: "sales@example.com" };
const grill: ProductMatch = {
  key: "blaze-3159840",
  title: "Blaze Premium LTE+ 40-Inch 5-Burner Built-In Natural Gas Grill w/ Lift-Assist Hood & Rear Infrared Burner - BLZ-5LTE3-NG",
  priceCents: 249_999,
  brand: "blaze",
  path: "/product/blaze-3159840",
};
const categories = ["Built-In Gas Grills", "Gas Grills", "Patio Heaters", "Outdoor Kitchen Cabinets & Storage"];
const catalog = {
  label: "40-inch natural gas grill",
  kind: "exact" as const,
  matches: [grill],
  total: 12,
  asksForProducts: true,
  unknownTerms: [],
};

describe("buildSystemPrompt", () => {
  const prompt = buildSystemPrompt({ store, brands: displayedBrandNames(), categories, catalog });

  it("holds the store's contact facts, shipping and returns", () => {
    expect(prompt).toContain("Outdoor Kitchen Outlet");
    expect(prompt).toContain("(877) 555-0142");
    expect(prompt).toContain("sales@example.com");
    expect(prompt).toContain("/contact");
    for (const fact of [...DELIVERY_FACTS, ...RETURN_FACTS]) expect(prompt).toContain(fact);
    for (const words of [
      "free on orders over $49",
      "$6.95",
      "24 hours",
      "4 - 6 weeks",
      "3-5 business days",
      "United States",
      "30 days",
      "48 hours",
    ]) {
      expect(prompt).toContain(words);
    }
  });

  it("holds the 20 brands and the categories", () => {
    expect(displayedBrandNames()).toHaveLength(20);
    for (const brand of ["Alfresco", "Blaze", "The Outdoor Plus", "Mont Alpi", "Bromic Heating"]) expect(prompt).toContain(brand);
    for (const category of categories) expect(prompt).toContain(category);
  });

  it("holds the matched products with title, price and path", () => {
    expect(prompt).toContain('Catalog matches for "40-inch natural gas grill" (12 in all, best 1 shown):');
    expect(prompt).toContain(`1. ${grill.title} | $2,499.99 | /product/blaze-3159840`);
  });

  it("tells the model to keep to the facts and not to write links", () => {
    expect(prompt).toMatch(/Answer only from the store facts and catalog matches/);
    expect(prompt).toMatch(/do not write URLs/);
  });

  it("says when the question named no product, and when nothing matched", () => {
    const noProduct = buildSystemPrompt({
      store,
      brands: [],
      categories: [],
      catalog: { ...catalog, asksForProducts: false, matches: [], kind: "none" },
    });
    expect(noProduct).toContain("the question names no product");
    const nothing = buildSystemPrompt({
      store,
      brands: [],
      categories: [],
      catalog: { ...catalog, label: "hovercraft", kind: "none", matches: [], total: 0, unknownTerms: ["hovercraft"] },
    });
    expect(nothing).toContain('Catalog matches for "hovercraft": none.');
    expect(nothing).toContain("No product title mentions: hovercraft.");
  });

  it(`stays within ${SYSTEM_PROMPT_MAX_CHARS} characters with a huge question, many matches and many categories`, () => {
    const huge = buildSystemPrompt({
      store: { name: "S".repeat(5_000), phone: "(877) 555-0142", email: "sales@example.com" },
      brands: Array.from({ length: 500 }, (_, index) => `Brand ${index} ${"x".repeat(100)}`),
      categories: Array.from({ length: 2_000 }, (_, index) => `Category ${index} ${"y".repeat(200)}`),
      catalog: {
        ...catalog,
        label: "do you have ".repeat(10_000),
        unknownTerms: Array.from({ length: 1_000 }, () => "zzz"),
        matches: Array.from({ length: 200 }, (_, index) => ({
          ...grill,
          key: `blaze-${index}`,
          title: `${"Grill ".repeat(2_000)}${index}`,
          path: `/product/blaze-${index}`,
        })),
      },
    });
    expect(huge.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
    // The facts and the first matches survive; only five matches are listed.
    expect(huge).toContain("(877) 555-0142");
    expect(huge).toContain("sales@example.com");
    expect(huge).toContain("/product/blaze-0");
    expect(huge).toContain("/product/blaze-4");
    expect(huge).not.toContain("/product/blaze-5");
  });

  it(`lists at most ${MAX_PROMPT_CATEGORIES} categories`, () => {
    const many = buildSystemPrompt({
      store,
      brands: displayedBrandNames(),
      categories: Array.from({ length: 100 }, (_, index) => `Cat${index}`),
      catalog,
    });
    expect(many).toContain(`Cat${MAX_PROMPT_CATEGORIES - 1},`.replace(/,$/, ""));
    expect(many).not.toContain(`Cat${MAX_PROMPT_CATEGORIES}`);
    expect(many.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
  });
});

describe("the chat's facts", () => {
  it("agree with the policy pages on the numbers", () => {
    const pages = JSON.stringify(POLICIES);
    const facts = [...DELIVERY_FACTS, ...RETURN_FACTS, ...DEFECTIVE_FACTS].join(" ");
    for (const figure of ["$49", "30 days", "48 hours", "United States", "curbside", "two people"]) {
      expect(pages, figure).toContain(figure);
      expect(facts, figure).toContain(figure);
    }
  });
});
