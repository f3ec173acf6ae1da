import { BRAND_KEYS } from "~/catalog/brands";
import { formatInches, parseInches } from "~/catalog/spec-values";

/**
 * The cutout finder's rules (pure; the query is in fit.server.ts).
 *
 * An opening fits a built-in product when, in width and depth, the product's
 * required cutout is at most OVERSIZE_ALLOWANCE larger than the opening
 * (a measuring allowance: a tape read to the nearest 1/8 in) and at most the
 * chosen gap smaller: a built-in grill or door hangs on a front frame or lip
 * that covers a small gap around it (makers allow roughly 1/2 to 1 in), but a
 * larger gap shows. Height only needs to be deep enough: a cutout height above
 * the opening's height (plus the allowance) does not fit; a shallower one is
 * shimmed. A product that lists no cutout height is kept when a height is
 * asked for, and says so.
 *
 * Snugness is the sum of the width and depth gaps: the smallest first.
 */

export const OVERSIZE_ALLOWANCE = 0.125;
export const GAP_CHOICES = [0.5, 1, 2] as const;
export const DEFAULT_GAP = 1;
const MAX_INCHES = 120;

export const FIT_TYPES = {
  grills: { label: "Built-in grills", categories: ["Built-In Grills"] },
  burners: { label: "Side burners and power burners", categories: ["Side Burners for Grills and Outdoor Kitchens"] },
  storage: { label: "Doors, drawers and cabinets", categories: ["Outdoor Kitchen Cabinets & Storage"] },
  refrigeration: { label: "Refrigerators and ice makers", categories: ["Outdoor Refrigeration"] },
  all: { label: "Any built-in product", categories: [] },
} as const;
export type FitType = keyof typeof FIT_TYPES;

export const FUEL_TYPES = ["Propane", "Natural Gas", "Charcoal", "Electric", "Wood", "Pellets"] as const;

export interface Opening {
  width: number;
  depth: number;
  height: number | null;
}

export interface FitQuery {
  opening: Opening | null;
  /** Product key of a catalogue product whose cutout is the opening. */
  grill: string;
  type: FitType;
  gap: number;
  brand: string;
  fuel: string;
  minPriceCents: number | null;
  maxPriceCents: number | null;
}

export interface FitForm {
  /** What the shopper typed, to show the form again. */
  values: Record<"width" | "depth" | "height" | "grill" | "type" | "gap" | "brand" | "fuel" | "min" | "max", string>;
  errors: Partial<Record<"width" | "depth" | "height" | "min" | "max", string>>;
  query: FitQuery;
  /** Whether the shopper asked for anything (a blank form shows no results and no errors). */
  submitted: boolean;
}

function readInches(text: string, label: string, required: boolean): { value: number | null; error?: string } {
  if (text.trim() === "") return required ? { value: null, error: `Enter the opening's ${label} in inches` } : { value: null };
  const value = parseInches(text);
  if (value === null || value > MAX_INCHES) {
    return { value: null, error: `Enter the ${label} in inches, such as 30, 30.25 or 30 1/4 (at most ${MAX_INCHES})` };
  }
  return { value };
}

function readDollars(text: string, label: string): { value: number | null; error?: string } {
  if (text.trim() === "") return { value: null };
  const value = Number(text.replace(/[$,\s]/g, ""));
  if (!Number.isFinite(value) || value < 0 || value > 1_000_000) return { value: null, error: `Enter a ${label} price in dollars` };
  return { value: Math.round(value * 100) };
}

/** Reads /fit's query string; never throws. */
export function parseFitSearch(search: URLSearchParams): FitForm {
  const get = (name: string) => (search.get(name) ?? "").slice(0, 100);
  const values: FitForm["values"] = {
    width: get("width"),
    depth: get("depth"),
    height: get("height"),
    grill: get("grill").trim(),
    type: get("type"),
    gap: get("gap"),
    brand: get("brand"),
    fuel: get("fuel"),
    min: get("min"),
    max: get("max"),
  };
  const usesGrill = values.grill !== "";
  const submitted = ["width", "depth", "height", "grill"].some((name) => values[name as keyof FitForm["values"]].trim() !== "");
  const errors: FitForm["errors"] = {};
  const width = readInches(values.width, "width", submitted && !usesGrill);
  const depth = readInches(values.depth, "depth", submitted && !usesGrill);
  const height = readInches(values.height, "height", false);
  const min = readDollars(values.min, "lowest");
  const max = readDollars(values.max, "highest");
  for (const [name, read] of Object.entries({ width, depth, height, min, max })) {
    if (read.error) errors[name as keyof FitForm["errors"]] = read.error;
  }
  const type: FitType = values.type in FIT_TYPES ? (values.type as FitType) : "grills";
  const gapNumber = Number(values.gap);
  const gap = (GAP_CHOICES as readonly number[]).includes(gapNumber) ? gapNumber : DEFAULT_GAP;
  const opening = width.value !== null && depth.value !== null ? { width: width.value, depth: depth.value, height: height.value } : null;
  return {
    values,
    errors,
    submitted,
    query: {
      opening,
      grill: usesGrill ? values.grill : "",
      type,
      gap,
      brand: (BRAND_KEYS as readonly string[]).includes(values.brand) ? values.brand : "",
      fuel: (FUEL_TYPES as readonly string[]).includes(values.fuel) ? values.fuel : "",
      minPriceCents: min.value,
      maxPriceCents: max.value,
    },
  };
}

export interface Cutout {
  width: number;
  depth: number;
  height: number | null;
}

/** Whether a cutout fits an opening under the rule above. */
export function cutoutFits(cutout: Cutout, opening: Opening, gap = DEFAULT_GAP): boolean {
  const within = (need: number, have: number) => need <= have + OVERSIZE_ALLOWANCE && have - need <= gap;
  if (!within(cutout.width, opening.width) || !within(cutout.depth, opening.depth)) return false;
  if (opening.height !== null && cutout.height !== null && cutout.height > opening.height + OVERSIZE_ALLOWANCE) return false;
  return true;
}

/** Width gap plus depth gap (negative gaps, inside the allowance, count as their size): smaller is snugger. */
export function snugness(cutout: Cutout, opening: Opening): number {
  return Math.abs(opening.width - cutout.width) + Math.abs(opening.depth - cutout.depth);
}

/** "1/4 in wider than needed", "exact", "1/8 in tight (within the allowance)". */
export function describeGap(have: number, need: number): string {
  const gap = Math.round((have - need) * 1000) / 1000;
  if (gap === 0) return "exact";
  if (gap > 0) return `${formatInches(gap)} in to spare`;
  return `${formatInches(-gap)} in tight (within the ${formatInches(OVERSIZE_ALLOWANCE)} in allowance)`;
}

/** The rule in plain words, shown with the results. */
export function fitRuleText(gap: number): string {
  return `A product is listed when its required cutout is no more than ${formatInches(OVERSIZE_ALLOWANCE)} in larger than your opening and no more than ${formatInches(gap)} in smaller, in width and in depth (its front frame covers a gap up to that size), and no taller than your opening's height when you give one. The snuggest fit comes first.`;
}

/** The bookmarkable /fit address for an opening. */
export function fitPath(opening: { width: number; depth: number; height?: number | null }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ width: String(opening.width), depth: String(opening.depth) });
  if (opening.height) params.set("height", String(opening.height));
  for (const [name, value] of Object.entries(extra)) if (value) params.set(name, value);
  return `/fit?${params}`;
}
