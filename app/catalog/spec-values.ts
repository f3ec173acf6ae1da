import { formatNumber } from "~/utils/number-format";
import type { Specification } from "./product";

/**
 * Typed, unit-aware values for the specifications the buying guides use
 * (compare, fits-my-grill, the cutout finder, the sizing helpers, the chat).
 *
 * The catalog keeps every specification as text (`29 3/8"`, `770 Sq. Inches`,
 * `60,000 BTUs`); this module reads the ones the guides need into numbers,
 * short texts and yes/no. It is used by the importer (the per-field report
 * printed by `npm run catalog:import`) and by the catalog load, which stores
 * the values in `products.spec_values` so queries can filter and sort on them.
 *
 * A text that does not match a field's format exactly is left out, never
 * guessed: `16 1/2" W/ 7/8 Inch Notch Cut Out` has no cutout width, and
 * `16 Ft. Diameter` has no heating area. The original text stays in
 * `specifications` for display.
 */

type Unit = "in" | "sq in" | "sq ft" | "BTU" | "W" | "count" | "text" | "yes/no";

interface FieldDefinition {
  /** Specification names that hold this field, first found wins (case-insensitive). */
  names: readonly string[];
  unit: Unit;
  /** Human label for reports and the compare table. */
  label: string;
  parse: (text: string) => number | string | boolean | null;
}

const INCH_MARK = String.raw`(?:"|''|”|\s*(?:-\s*)?in(?:ch(?:es)?)?\.?)`;
const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const FRACTION = String.raw`(?:(?:\s+|-)(\d+)\/(\d+))?`;

function mixedNumber(whole: string, numerator?: string, denominator?: string): number | null {
  const base = Number(whole);
  if (!Number.isFinite(base)) return null;
  if (numerator === undefined || denominator === undefined) return base;
  const top = Number(numerator);
  const bottom = Number(denominator);
  if (bottom === 0 || top >= bottom) return null;
  return base + top / bottom;
}

const round = (value: number, places = 4) => Math.round(value * 10 ** places) / 10 ** places;

const inchesPattern = new RegExp(String.raw`^${NUMBER}${FRACTION}\s*${INCH_MARK}?$`, "i");
const fractionOnlyPattern = new RegExp(String.raw`^(\d+)\/(\d+)\s*${INCH_MARK}?$`, "i");

/** Inches from `29 3/8"`, `31.875"`, `36-Inch`, `36 Inches`, `7/8"`, `24`; anything else is null. */
export function parseInches(text: string): number | null {
  const trimmed = text.trim();
  const match = inchesPattern.exec(trimmed);
  if (match) {
    const value = mixedNumber(match[1], match[2], match[3]);
    return value !== null && value > 0 ? round(value) : null;
  }
  const fraction = fractionOnlyPattern.exec(trimmed);
  if (fraction) {
    const value = mixedNumber("0", fraction[1], fraction[2]);
    return value !== null && value > 0 ? round(value) : null;
  }
  return null;
}

const squareInchesPattern = new RegExp(String.raw`^${NUMBER}${FRACTION}\s*(?:sq\.?\s*in(?:ch(?:es)?)?\.?|square\s+inch(?:es)?)$`, "i");
const rectanglePattern = /^(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(?:sq\.?\s*in(?:ch(?:es)?)?\.?|square\s+inch(?:es)?|"|in\.?)?$/i;

/** Square inches from `770 Sq. Inches`, `516 1/2 Sq. Inches`, `119 Sq.Inches`, or `30 X 18 Sq. Inches` (30 by 18). */
export function parseSquareInches(text: string): number | null {
  const trimmed = text.trim();
  const match = squareInchesPattern.exec(trimmed);
  if (match) {
    const value = mixedNumber(match[1], match[2], match[3]);
    return value !== null && value > 0 ? round(value, 2) : null;
  }
  const rectangle = rectanglePattern.exec(trimmed);
  if (rectangle) return round(Number(rectangle[1]) * Number(rectangle[2]), 2);
  return null;
}

/** Square feet from `160 Sq. Ft.`, `200 sq ft`; a diameter or a range is null. */
export function parseSquareFeet(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(?:sq\.?\s*f(?:ee)?t\.?|square\s+f(?:ee|oo)t)$/i.exec(text.trim());
  return match ? Number(match[1]) : null;
}

function plainNumber(text: string): number | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.exec(text);
  if (!match) return null;
  const value = Number(text.replace(/,/g, ""));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** BTU from `60,000 BTUs`, `60000`, `45000 BTU/hr`; a range (`60,000 - 74,999`) is null. */
export function parseBtu(text: string): number | null {
  const stripped = text
    .trim()
    .replace(/\s*btus?(?:\s*\/\s*(?:hr|hour))?\.?$/i, "")
    .trim();
  return plainNumber(stripped);
}

/** Watts from `6000`, `2,300 W`, `4500 Watts`. */
export function parseWatts(text: string): number | null {
  const stripped = text
    .trim()
    .replace(/\s*(?:w|watts?)\.?$/i, "")
    .trim();
  return plainNumber(stripped);
}

/** A whole count from `32`, `3 Burners`, `4 burner`; words such as `Single Burner` are null. */
export function parseCount(text: string): number | null {
  const match = /^(\d+)(?:\s+[a-z]+)?$/i.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]);
  return value > 0 ? value : null;
}

/** Yes/no from `Yes`, `No`, `Y`, `N`, `True`, `False`. */
export function parseYesNo(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (["yes", "y", "true"].includes(value)) return true;
  if (["no", "n", "false"].includes(value)) return false;
  return null;
}

function parseText(text: string): string | null {
  const value = text.trim().replace(/\s+/g, " ");
  return value === "" ? null : value;
}

export const SPEC_FIELDS = {
  width: { names: ["Width"], unit: "in", label: "Width", parse: parseInches },
  depth: { names: ["Depth"], unit: "in", label: "Depth", parse: parseInches },
  height: { names: ["Height"], unit: "in", label: "Height", parse: parseInches },
  cutoutWidth: { names: ["Cutout Width", "Cut Out Width"], unit: "in", label: "Cutout width", parse: parseInches },
  cutoutDepth: { names: ["Cutout Depth", "Cut Out Depth"], unit: "in", label: "Cutout depth", parse: parseInches },
  cutoutHeight: { names: ["Cutout Height", "Cut Out Height"], unit: "in", label: "Cutout height", parse: parseInches },
  mainGrillingArea: { names: ["Main Grilling Area"], unit: "sq in", label: "Main grilling area", parse: parseSquareInches },
  totalGrillingArea: { names: ["Total Grilling Area"], unit: "sq in", label: "Total grilling area", parse: parseSquareInches },
  burgerCount: { names: ["Burger Count"], unit: "count", label: "Burger count", parse: parseCount },
  mainBurners: { names: ["Number Of Main Burners"], unit: "count", label: "Main burners", parse: parseCount },
  grillingBtu: { names: ["Grilling Surface BTUs"], unit: "BTU", label: "Grilling surface BTU", parse: parseBtu },
  btu: { names: ["BTU", "BTUs", "Total BTUs", "Total Btus"], unit: "BTU", label: "BTU", parse: parseBtu },
  watts: { names: ["Watts"], unit: "W", label: "Watts", parse: parseWatts },
  heatingArea: { names: ["Avg Heat Area"], unit: "sq ft", label: "Heating area", parse: parseSquareFeet },
  fuelType: { names: ["Fuel Type"], unit: "text", label: "Fuel type", parse: parseText },
  class: { names: ["Class"], unit: "text", label: "Class", parse: parseText },
  grillModel: { names: ["Grill Model"], unit: "text", label: "Grill model", parse: parseText },
  collection: { names: ["Collection"], unit: "text", label: "Collection", parse: parseText },
  heatZoneSeparators: { names: ["Heat Zone Separators"], unit: "yes/no", label: "Heat zone separators", parse: parseYesNo },
  madeInUsa: { names: ["Made In USA"], unit: "yes/no", label: "Made in USA", parse: parseYesNo },
} as const satisfies Record<string, FieldDefinition>;

export type SpecField = keyof typeof SPEC_FIELDS;
export const SPEC_FIELD_KEYS = Object.keys(SPEC_FIELDS) as SpecField[];

type ValueOf<F extends SpecField> = NonNullable<ReturnType<(typeof SPEC_FIELDS)[F]["parse"]>>;

/** The normalized values of one product, as stored in `products.spec_values`: only fields that parsed. */
export type SpecValues = { [F in SpecField]?: ValueOf<F> };

/** What a field read from one product: its original text and the value (null when unreadable). */
export interface FieldReading {
  name: string;
  text: string;
  value: number | string | boolean | null;
}

/** The first non-empty specification of `names` (case-insensitive), with the name it was found under. */
function findSpec(specifications: readonly Specification[], names: readonly string[]): { name: string; text: string } | null {
  for (const wanted of names) {
    const lower = wanted.toLowerCase();
    for (const entry of specifications) {
      for (const [name, text] of Object.entries(entry)) {
        if (name.toLowerCase() === lower && text.trim() !== "") return { name, text };
      }
    }
  }
  return null;
}

/** Every field's reading for one product (fields the product does not have are absent). */
export function readSpecFields(specifications: readonly Specification[]): Partial<Record<SpecField, FieldReading>> {
  const readings: Partial<Record<SpecField, FieldReading>> = {};
  for (const field of SPEC_FIELD_KEYS) {
    const found = findSpec(specifications, SPEC_FIELDS[field].names);
    if (!found) continue;
    readings[field] = { ...found, value: SPEC_FIELDS[field].parse(found.text) };
  }
  return readings;
}

/** The normalized values of one product: every field that parsed, nothing guessed. */
export function normalizeSpecs(specifications: readonly Specification[]): SpecValues {
  const values: Record<string, number | string | boolean> = {};
  for (const [field, reading] of Object.entries(readSpecFields(specifications))) {
    if (reading && reading.value !== null) values[field] = reading.value;
  }
  return values as SpecValues;
}

/** A value with its unit for people: `30 1/4 in`, `770 sq in`, `60,000 BTU`, `Yes`. */
export function formatSpecValue(field: SpecField, value: number | string | boolean): string {
  const unit = SPEC_FIELDS[field].unit;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string") return value;
  switch (unit) {
    case "in":
      return `${formatInches(value)} in`;
    case "sq in":
      return `${formatNumber(value)} sq in`;
    case "sq ft":
      return `${formatNumber(value)} sq ft`;
    case "BTU":
      return `${formatNumber(value)} BTU`;
    case "W":
      return `${formatNumber(value)} W`;
    default:
      return formatNumber(value);
  }
}

/** Inches as a carpenter writes them when the fraction is a sixteenth or coarser (`30 1/4`), else decimals. */
export function formatInches(value: number): string {
  const whole = Math.floor(value);
  const sixteenths = Math.round((value - whole) * 16);
  if (Math.abs((value - whole) * 16 - sixteenths) < 1e-6) {
    if (sixteenths === 0) return String(whole);
    if (sixteenths === 16) return String(whole + 1);
    let top = sixteenths;
    let bottom = 16;
    while (top % 2 === 0) {
      top /= 2;
      bottom /= 2;
    }
    return whole === 0 ? `${top}/${bottom}` : `${whole} ${top}/${bottom}`;
  }
  return String(round(value, 3));
}
