import type { CatalogProduct } from "./product";
import { specValue } from "./product";
import { productColour } from "./colour";
import { formatInches, parseInches } from "./spec-values";
import { cardData, type ProductCardData, type ProductSummary } from "./store-product";

/**
 * The short facts a product card always shows under its title: what tells
 * variation siblings apart when their titles differ only at the end, which the
 * card's two-line title clamp cuts ("Alfresco ALXE 56-Inch Freestanding Propane
 * All Grill … in Raspberry Red"). Colour, fuel, size, how it stands, the
 * hinge side: each only when the title or the specifications say it.
 * Computed once per catalogue load (load.server.ts) and stored with the product.
 */
export function productFacts(record: Pick<CatalogProduct, "Title" | "Specifications">): string[] {
  // Fuel and stand are the product's own, not those of what it is "for" (a rotisserie kit for charcoal grills).
  const own = { ...record, Title: record.Title.split(/\s(?:designed )?for\s/i)[0] ?? record.Title };
  return [colourFact(record), fuelFact(own), sizeFact(record), standFact(own), hingeFact(record.Title)].filter(
    (fact): fact is string => Boolean(fact),
  );
}

function colourFact({ Title, Specifications }: Pick<CatalogProduct, "Title" | "Specifications">): string | null {
  const colour = productColour(Title, Specifications);
  if (!colour) return null;
  return /^stainless(?: steel)?$/i.test(colour.name) ? "Stainless" : colour.name;
}

const FUELS: ReadonlyArray<readonly [RegExp, string]> = [
  [/natural gas (?:to|or) propane/i, "Natural gas to propane"],
  [/(?:liquid )?propane (?:gas )?(?:grill )?to natural gas/i, "Propane to natural gas"],
  [/natural gas\s*\/\s*charcoal|gas\s*\/\s*charcoal|dual fuel/i, "Gas and charcoal"],
  [/\bnatural gas\b/i, "Natural gas"],
  [/\b(?:propane|lp)\b/i, "Propane"],
  [/\bcharcoal (?:grill|kettle|smoker)|\bkettle grill\b/i, "Charcoal"],
  [/\bpellet (?:grill|smoker)/i, "Pellets"],
  [/\bwood[- ](?:fired|burning)\b/i, "Wood"],
  [/\bhybrid pizza oven\b/i, "Gas or wood"],
  [/\belectric\b/i, "Electric"],
];

function fuelFact({ Title, Specifications }: Pick<CatalogProduct, "Title" | "Specifications">): string | null {
  for (const [pattern, fuel] of FUELS) if (pattern.test(Title)) return fuel;
  const spec = specValue({ Specifications }, "Fuel Type");
  if (!spec) return null;
  return /^natural gas$/i.test(spec) ? "Natural gas" : spec;
}

/** `56"` from "56-Inch", "36 Inch", `54" Rectangular`; else the Width specification; "28 Lb." for a bag. */
function sizeFact({ Title, Specifications }: Pick<CatalogProduct, "Title" | "Specifications">): string | null {
  const inches = /\b(\d{1,3}(?:\.\d{1,2})?(?:\s\d\/\d)?)(?:-|\s)?(?:inch(?:es)?\b|in\.|")/i.exec(Title);
  if (inches) return `${inches[1]}"`;
  const weight = /\b(\d{1,3})\s?(?:lb|lbs)\.?(?=\s|$)/i.exec(Title);
  if (weight) return `${weight[1]} lb`;
  const width = parseInches(specValue({ Specifications }, "Width") ?? "");
  return width ? `${formatInches(width)}" wide` : null;
}

const STANDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/refrigerated cart/i, "Refrigerated cart"],
  [/deluxe cart/i, "Deluxe cart"],
  [/\bon (?:a |the )?(?:steel |upgraded |universal |cabinet )?cart\b|\bw(?:ith|\/) ?(?:an? )?(?:upgraded |universal |coyote universal )?cart\b/i, "On cart"],
  [/\bpatio post\b|\bon post\b/i, "On post"],
  [/\bpedestal\b/i, "On pedestal"],
  [/\bbuilt[- ]?in\b/i, "Built-in"],
  [/\bfreestanding\b|\bfree standing\b/i, "Freestanding"],
  [/\bcountertop\b/i, "Countertop"],
  [/\bdrop[- ]?in\b/i, "Drop-in"],
  [/\bportable\b/i, "Portable"],
  [/\btabletop\b/i, "Tabletop"],
  [/\bwall\b|\bceiling\b/i, "Wall or ceiling"],
];

function standFact({ Title, Specifications }: Pick<CatalogProduct, "Title" | "Specifications">): string | null {
  for (const [pattern, stand] of STANDS) if (pattern.test(Title)) return stand;
  const configuration = specValue({ Specifications }, "Configuration");
  if (!configuration || /^(?:regular|narrow|slim)$/i.test(configuration)) return null;
  return configuration.charAt(0) + configuration.slice(1).toLowerCase();
}

function hingeFact(title: string): string | null {
  const hinge = /\b(left|right)[- ]hinged?\b/i.exec(title);
  return hinge ? `${hinge[1]!.charAt(0).toUpperCase()}${hinge[1]!.slice(1).toLowerCase()} hinge` : null;
}

export interface CardFactsInput {
  id: string;
  title: string;
  model: string;
  priceCents: number;
  facts: readonly string[];
}

const STOP_WORDS = new Set(["with", "w/", "and", "&", "in", "the", "for", "by", "of", "a", "-", "–", "on", "or"]);

/** A title's words for comparison, without its model number and trailing punctuation. */
function titleWords(title: string, model: string): string[] {
  const withoutModel = model.trim() ? title.split(model.trim()).join(" ") : title;
  return withoutModel
    .split(/[\s,]+/)
    .map((word) => word.replace(/^[("']+|[)"'.,:;]+$/g, ""))
    .filter((word) => word !== "" && word !== "-" && word !== "–");
}

/**
 * The facts each card of a list shows: its own (productFacts), and where two cards of the list would
 * still read alike (the same first words, facts and price) the title words that tell them apart
 * ("Sear Zone"), else the model number (the Id for a product without one: the catalogue has
 * duplicates that differ in nothing else). Cards whose first words already differ are left alone.
 */
export function distinguishCards<T extends CardFactsInput>(cards: readonly T[]): Array<T & { facts: string[] }> {
  const result = cards.map((card) => ({ ...card, facts: [...card.facts] }));
  const keyOf = (card: (typeof result)[number]) =>
    [titleWords(card.title, card.model).slice(0, 3).join(" ").toLowerCase(), card.priceCents, card.facts.join(" · ")].join("\u0000");
  const groups = new Map<string, typeof result>();
  for (const card of result) groups.set(keyOf(card), [...(groups.get(keyOf(card)) ?? []), card]);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const words = group.map((card) => titleWords(card.title, card.model));
    const sets = words.map((list) => new Set(list.map((word) => word.toLowerCase())));
    group.forEach((card, index) => {
      const known = new Set(card.facts.join(" ").toLowerCase().split(/\s+/));
      const own = words[index] ?? [];
      const distinct = own.map((word) => {
        const lower = word.toLowerCase();
        return !STOP_WORDS.has(lower) && !known.has(lower) && !known.has(lower.replace(/-inch$/, '"')) && sets.some((set) => !set.has(lower));
      });
      const runs: string[] = [];
      let run: string[] = [];
      own.forEach((word, i) => {
        if (distinct[i]) run.push(word);
        else if (run.length > 0) {
          runs.push(run.join(" "));
          run = [];
        }
      });
      if (run.length > 0) runs.push(run.join(" "));
      const extra = runs.join(", ").split(" ").slice(0, 5).join(" ").replace(/,$/, "");
      if (extra) card.facts.push(extra);
    });
    // Still alike (the same words, in another order, or none at all): the model number or Id tells them apart.
    const seen = new Map<string, (typeof result)[number][]>();
    for (const card of group) {
      const key = card.facts.join(" · ");
      seen.set(key, [...(seen.get(key) ?? []), card]);
    }
    for (const alike of seen.values()) {
      if (alike.length < 2) continue;
      const models = new Set(alike.map((card) => card.model.trim()));
      for (const card of alike) card.facts.push(models.size === alike.length && card.model.trim() ? card.model.trim() : `Item ${card.id}`);
    }
  }
  return result;
}

/** The cards of a list as loaders send them: each with its facts, and where two would read alike, what tells them apart. */
export function cardList(products: readonly ProductSummary[]): readonly ProductCardData[] {
  let cards = cardLists.get(products);
  if (!cards) {
    cards = distinguishCards(products).map(cardData);
    cardLists.set(products, cards);
  }
  return cards;
}

/**
 * The cards of each product list the catalogue memo holds, made once: a page shows the same cached list
 * to every shopper, and telling its cards apart (distinguishCards) was 2% of rendering the home page.
 */
const cardLists = new WeakMap<readonly ProductSummary[], readonly ProductCardData[]>();
