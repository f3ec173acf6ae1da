import { BRAND_NAMES_LONGEST_FIRST, escapeRegExp } from "../brands";
import type { BrandKey, Specification } from "../product";
import { isBrandKey } from "../product";

/**
 * Pure, record-level normalization helpers for the catalog importer.
 * Nothing here reads files or depends on the order of other records.
 */

/** Rounds to cents, avoiding binary floating point noise. */
export function roundPrice(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Parses a raw price: numbers as they are, strings such as "USD 2560",
 * "$1,299.00", "2,560" or "2560". Returns null for null/empty/unparseable
 * values and for prices that are not positive.
 */
export function parsePrice(raw: unknown): number | null {
  let value: number;
  if (typeof raw === "number") {
    value = raw;
  } else if (typeof raw === "string") {
    const cleaned = raw
      .trim()
      .replace(/^(?:USD|US\$|\$)\s*/i, "")
      .replace(/\s*(?:USD)$/i, "")
      .replace(/^\$/, "")
      .replace(/,/g, "")
      .trim();
    if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return null;
    value = Number(cleaned);
  } else {
    return null;
  }
  if (!Number.isFinite(value) || value <= 0) return null;
  const rounded = roundPrice(value);
  return rounded > 0 ? rounded : null;
}

/** Ids are kept as strings; numeric ids as their decimal string. */
export function normalizeId(raw: unknown): string | null {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) return null;
    return Number.isInteger(raw) ? raw.toFixed(0) : String(raw);
  }
  if (typeof raw === "string") {
    const id = raw.trim();
    return id.length > 0 ? id : null;
  }
  return null;
}

/** Collapses runs of whitespace and trims. */
export function normalizeText(raw: unknown): string {
  return typeof raw === "string" ? raw.replace(/\s+/g, " ").trim() : "";
}

export type SpecificationResult = {
  specifications: Specification[];
  /** Entries whose key was the empty string (scraping noise). */
  noiseDropped: number;
  /** Fragments that were not "name: value" or had no usable value. */
  malformedDropped: number;
  /** Later entries repeating an earlier name. */
  duplicatesDropped: number;
  /** The source held one "Name: value; Name: value" string. */
  splitFromString: boolean;
  /** The source had no specifications field at all (or null). */
  missing: boolean;
};

/**
 * Normalizes the Specifications field to a list of single-key objects:
 * - a list of objects is flattened (an object with several keys becomes
 *   several entries), keys and values trimmed;
 * - a string "Name: value; Name: value" (older shape) is split on ";" and each
 *   fragment at its first ":";
 * - the empty-string key (page text captured by the scraper) is dropped;
 * - empty values, non-scalar values and repeated names are dropped.
 */
export function normalizeSpecifications(raw: unknown): SpecificationResult {
  const result: SpecificationResult = {
    specifications: [],
    noiseDropped: 0,
    malformedDropped: 0,
    duplicatesDropped: 0,
    splitFromString: false,
    missing: false,
  };
  const pairs: Array<[string, unknown]> = [];
  if (raw === null || raw === undefined) {
    result.missing = true;
  } else if (typeof raw === "string") {
    result.splitFromString = true;
    for (const fragment of splitSpecificationString(raw)) {
      if (fragment === null) result.malformedDropped += 1;
      else pairs.push(fragment);
    }
  } else if (Array.isArray(raw)) {
    for (const entry of raw) {
      if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
        result.malformedDropped += 1;
        continue;
      }
      for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
        pairs.push([key, value]);
      }
    }
  } else {
    result.malformedDropped += 1;
  }

  const seen = new Set<string>();
  for (const [rawKey, rawValue] of pairs) {
    const key = rawKey.replace(/\s+/g, " ").trim();
    if (key === "") {
      result.noiseDropped += 1;
      continue;
    }
    let value: string;
    if (typeof rawValue === "string") value = rawValue.replace(/\s+/g, " ").trim();
    else if (typeof rawValue === "number" || typeof rawValue === "boolean") value = String(rawValue);
    else {
      result.malformedDropped += 1;
      continue;
    }
    if (value === "") {
      result.malformedDropped += 1;
      continue;
    }
    if (seen.has(key)) {
      result.duplicatesDropped += 1;
      continue;
    }
    seen.add(key);
    result.specifications.push({ [key]: value });
  }
  return result;
}

/**
 * Splits "Name: value; Name: value" into pairs. A fragment without ":" is
 * returned as null (malformed). A fragment such as ": Current Item..." gives
 * the empty key, which the caller treats as noise.
 */
export function splitSpecificationString(text: string): Array<[string, string] | null> {
  const out: Array<[string, string] | null> = [];
  for (const part of text.split(";")) {
    const fragment = part.trim();
    if (fragment === "") continue;
    const colon = fragment.indexOf(":");
    if (colon < 0) {
      out.push(null);
      continue;
    }
    out.push([fragment.slice(0, colon).trim(), fragment.slice(colon + 1).trim()]);
  }
  return out;
}

/**
 * Brand from a title: a known brand name at the start of the title
 * ("American Made Grills Encore 36-Inch ..." -> american_made_grills), else a
 * trailing "by {brand}" ("... Fire Pit Table in Smoke by American Fyre
 * Designs"). Null when neither matches.
 */
export function brandFromTitle(title: string): BrandKey | null {
  const text = normalizeText(title);
  for (const [name, key] of BRAND_NAMES_LONGEST_FIRST) {
    if (new RegExp(`^${escapeRegExp(name)}(?![A-Za-z0-9])`, "i").test(text)) return key;
  }
  for (const [name, key] of BRAND_NAMES_LONGEST_FIRST) {
    if (new RegExp(`\\bby ${escapeRegExp(name)}$`, "i").test(text)) return key;
  }
  return null;
}

/** A brand key from a raw field, or null. `custom_product` is never taken from source data. */
export function brandFromField(raw: unknown): BrandKey | null {
  if (typeof raw !== "string") return null;
  const key = raw.trim().toLowerCase();
  return isBrandKey(key) && key !== "custom_product" ? key : null;
}

/**
 * A model number from the title's trailing " - CODE" part, when that part
 * looks like a model code (capitals, digits, dashes; a digit or several segments):
 * "... Outdoor Pizza Oven On Cart - ARTP-PZA-NG" -> "ARTP-PZA-NG";
 * "... Fireplace - Cafe Blanco" -> null.
 */
export function modelFromTitle(title: string): string | null {
  const text = normalizeText(title);
  const match = /\s-\s+([^\s]+)$/.exec(text);
  const code = match?.[1];
  if (!code) return null;
  if (!/^[A-Z0-9][A-Z0-9./_+-]*$/.test(code)) return null;
  // A digit, or several segments ("ARTP-PZA-LP"); a lone word such as "BLACK" is not a model.
  if (!/\d/.test(code) && !/^[A-Z0-9]+(?:[-./_][A-Z0-9]+)+$/.test(code)) return null;
  return code;
}

/** image_count as an integer >= 1, or null when missing/invalid (the caller defaults to 1). */
export function normalizeImageCount(raw: unknown): number | null {
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const count = Math.floor(value);
  return count >= 1 ? count : null;
}

/** Category from the raw field: trimmed names, "Home" ensured at the root. */
export function normalizeCategory(raw: unknown): { path: string[]; homeAdded: boolean } | null {
  if (!Array.isArray(raw)) return null;
  const names = raw
    .filter((name): name is string => typeof name === "string")
    .map((name) => name.replace(/\s+/g, " ").trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) return null;
  if (names[0] === "Home") return { path: names, homeAdded: false };
  return { path: ["Home", ...names.filter((name) => name !== "Home")], homeAdded: true };
}

/** Stable Id order: numeric Ids by value, then other Ids by code point. */
export function compareIds(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) {
    const aDigits = a.replace(/^0+(?=\d)/, "");
    const bDigits = b.replace(/^0+(?=\d)/, "");
    if (aDigits.length !== bDigits.length) return aDigits.length - bDigits.length;
    if (aDigits !== bDigits) return aDigits < bDigits ? -1 : 1;
  } else if (aNumeric !== bNumeric) {
    return aNumeric ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Code-point string comparison (locale-independent, for deterministic sorting). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
