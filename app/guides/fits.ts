import { brandDisplayName } from "~/catalog/brands";
import { titleHead } from "~/catalog/family";

/**
 * "Fits my grill": which accessories fit which grills. Pure rules, tested
 * against real catalogue pairs in fits.test.ts; the queries are in
 * fits.server.ts.
 *
 * Only products of the same brand ever match. An accessory's `Grill Model`
 * names the grills it fits (`36 Inch Encore / Muscle Built-In Grill`,
 * `Prelude LBM 32 Inch / Premium LTE 32 Inch`, `All Professional LUX`,
 * `All Blaze Gas Grills`). It is split at `/` into targets; each target keeps
 * its series words (brand and filler words such as "All", "Grill", "Inch"
 * removed), its sizes (a number of inches; when only one size or one kind is
 * named in the whole text, it applies to every target) and whether it says
 * built-in or freestanding (from the Grill Model, else from a cover's title).
 * A grill matches a target when its title and collection contain every series
 * word, its size (from its title: `36-Inch`) is one of the target's sizes, and
 * its kind is the target's kind. A target with no series words is the whole
 * brand (`All Blaze Gas Grills`, `Blaze`), limited to gas grills when it says
 * "gas".
 *
 * Without a `Grill Model`, a cover, side burner, door or drawer fits the
 * grills of its own `Collection`; a cover that names a size in its title
 * (`Blaze 32-Inch ... Cover`) fits only grills of that size.
 */

export interface FitProductFacts {
  key: string;
  brand: string;
  title: string;
  categories: readonly string[];
  grillModel?: string | null;
  collection?: string | null;
  fuelType?: string | null;
}

type Kind = "built-in" | "freestanding";

interface Target {
  words: string[];
  sizes: number[];
  kind: Kind | null;
  gasOnly: boolean;
}

const GRILL_CATEGORIES = ["Built-In Grills", "BBQ Grills & Smokers"];
const COLLECTION_ACCESSORY_CATEGORIES = [
  "Grill & Smoker Covers",
  "Side Burners for Grills and Outdoor Kitchens",
  "Outdoor Kitchen Doors & Drawers",
  "Infrared Burners & Searing Kits",
];
const FILLER = new Set([
  "all",
  "inch",
  "inches",
  "in",
  "grill",
  "grills",
  "gas",
  "built",
  "builtin",
  "freestanding",
  "the",
  "for",
  "and",
  "series",
  "with",
  "w",
  "model",
  "models",
]);

/** A product is a grill when it sits in the grill categories (built-in or freestanding), not an accessory of them. */
export function isGrill(product: Pick<FitProductFacts, "categories">): boolean {
  return product.categories.some((name) => GRILL_CATEGORIES.includes(name));
}

/** Whether this product can fit grills at all (it has a Grill Model, or is a cover, burner or door with a collection). */
export function isGrillAccessory(product: FitProductFacts): boolean {
  if (isGrill(product)) return false;
  if (product.grillModel) return true;
  return Boolean(product.collection) && product.categories.some((name) => COLLECTION_ACCESSORY_CATEGORIES.includes(name));
}

const singular = (word: string) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/built-in/g, "builtin")
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singular);
}

function sizesIn(text: string): number[] {
  const sizes = new Set<number>();
  for (const match of text.matchAll(/(?<![\d.])(\d{2})(?![\d.])/g)) {
    const value = Number(match[1]);
    if (value >= 12 && value <= 99) sizes.add(value);
  }
  return [...sizes];
}

function kindIn(text: string): Kind | null {
  const lower = text.toLowerCase();
  const builtIn = /built-?in/.test(lower);
  const freestanding = /freestanding|free-standing|\bcart\b/.test(lower);
  if (builtIn === freestanding) return null;
  return builtIn ? "built-in" : "freestanding";
}

function brandWords(brand: string): Set<string> {
  return new Set(words(`${brandDisplayName(brand)} ${brand.replace(/_/g, " ")}`));
}

/** The grills an accessory's Grill Model names, as targets. */
export function grillModelTargets(accessory: FitProductFacts): Target[] {
  const text = accessory.grillModel ?? "";
  if (!text.trim()) return [];
  const brand = brandWords(accessory.brand);
  const wholeSizes = sizesIn(text);
  const wholeKind = kindIn(text) ?? (isCover(accessory) ? kindIn(accessory.title) : null);
  return text.split("/").map((part) => {
    const partSizes = sizesIn(part);
    const partKind = kindIn(part);
    return {
      words: words(part).filter((word) => !FILLER.has(word) && !brand.has(word) && !/^\d+$/.test(word) && word !== "&"),
      sizes: partSizes.length > 0 ? partSizes : wholeSizes.length === 1 ? wholeSizes : [],
      kind: partKind ?? wholeKind,
      gasOnly: /\bgas\b/i.test(part),
    };
  });
}

function isCover(product: Pick<FitProductFacts, "categories" | "title">): boolean {
  return product.categories.some((name) => /covers/i.test(name)) || /\bcover\b/i.test(product.title);
}

/** The accessory kinds a shopper can ask the chat for by name ("what cover fits my …"). */
export type AskedAccessoryKind = "cover" | "rotisserie";

/**
 * Whether an accessory is of the kind asked for, by what it is rather than by a word in its title:
 * a cover is filed under covers (a tank-hole cover or a gauge's cover plate is a part), a
 * rotisserie is named in the product-type part of its title (not in "island with rotisserie").
 */
export function isAccessoryOfKind(product: Pick<FitProductFacts, "title" | "categories">, kind: AskedAccessoryKind): boolean {
  if (kind === "cover") return product.categories.some((name) => /\bcovers\b/i.test(name));
  return /\brotisserie\b/i.test(titleHead(product.title));
}

/** The grill's size in inches from its title (`36-Inch`, `36 Inch`, `36"`), or null. */
export function grillSize(title: string): number | null {
  const match = /(?<![\d.])(\d{2})(?:\s*-\s*|\s*)(?:inch|in\.|")/i.exec(title);
  return match ? Number(match[1]) : null;
}

export function grillKind(grill: Pick<FitProductFacts, "title" | "categories">): Kind | null {
  if (/freestanding|free-standing|\bon cart\b|portable/i.test(grill.title)) return "freestanding";
  if (grill.categories.includes("Built-In Grills") || /built-in/i.test(grill.title)) return "built-in";
  return grill.categories.some((name) => GRILL_CATEGORIES.includes(name)) ? "freestanding" : null;
}

function collections(value: string | null | undefined): string[] {
  return (value ?? "")
    .split("/")
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

function isGas(grill: FitProductFacts): boolean {
  if (grill.fuelType) return /propane|natural gas/i.test(grill.fuelType);
  return /\bgas\b|propane|natural gas/i.test(grill.title);
}

/** Whether `accessory` fits `grill` under the rules above. */
export function accessoryFitsGrill(accessory: FitProductFacts, grill: FitProductFacts): boolean {
  if (accessory.brand !== grill.brand || !isGrill(grill) || !isGrillAccessory(accessory)) return false;
  const size = grillSize(grill.title);
  const kind = grillKind(grill);
  if (accessory.grillModel) {
    const grillWords = new Set(words(`${grill.title} ${grill.collection ?? ""}`));
    return grillModelTargets(accessory).some((target) => {
      if (!target.words.every((word) => grillWords.has(word))) return false;
      if (target.sizes.length > 0 && (size === null || !target.sizes.includes(size))) return false;
      if (target.kind && kind && target.kind !== kind) return false;
      if (target.words.length === 0 && target.gasOnly && !isGas(grill)) return false;
      return true;
    });
  }
  const shared = collections(accessory.collection).some((name) => collections(grill.collection).includes(name));
  if (!shared) return false;
  if (isCover(accessory)) {
    const coverSize = grillSize(accessory.title);
    if (coverSize !== null && coverSize !== size) return false;
    const coverKind = kindIn(accessory.title);
    if (coverKind && kind && coverKind !== kind) return false;
  }
  return true;
}
