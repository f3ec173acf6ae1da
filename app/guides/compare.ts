import { parseProductKey } from "~/catalog/brands";
import type { Specification } from "~/catalog/product";
import { specMap } from "~/catalog/variations";

/**
 * Compare up to four products: the list rules (pure) and the table's rows.
 * The list lives in a signed cookie (compare-cookie.server.ts) and in the
 * shareable address `/compare?items={key},{key}`.
 */

export const MAX_COMPARE = 4;
export const COMPARE_STORAGE_KEY = "compare";

/** Valid, distinct product keys, at most four, in order. */
export function sanitizeCompareList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const keys: string[] = [];
  for (const entry of value) {
    if (typeof entry !== "string" || !parseProductKey(entry) || keys.includes(entry)) continue;
    keys.push(entry);
    if (keys.length === MAX_COMPARE) break;
  }
  return keys;
}

/** `items=a,b,c` (commas, spaces or repeated `items`) -> the list. */
export function parseCompareItems(search: URLSearchParams): string[] | null {
  const values = search.getAll("items");
  if (values.length === 0) return null;
  return sanitizeCompareList(values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean));
}

export function comparePath(keys: readonly string[], extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (keys.length > 0) params.set("items", keys.join(","));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString().replace(/%2C/g, ",");
  return query ? `/compare?${query}` : "/compare";
}

export type CompareChange =
  | { ok: true; list: string[] }
  /** The list is full: the shopper picks which product the new one replaces. */
  | { ok: false; full: true; list: string[]; adding: string };

export function addToCompare(list: readonly string[], key: string): CompareChange {
  if (list.includes(key)) return { ok: true, list: [...list] };
  if (list.length >= MAX_COMPARE) return { ok: false, full: true, list: [...list], adding: key };
  return { ok: true, list: [...list, key] };
}

export function removeFromCompare(list: readonly string[], key: string): string[] {
  return list.filter((entry) => entry !== key);
}

/** Puts `adding` where `replaced` was; a `replaced` not in the list adds when there is room. */
export function replaceInCompare(list: readonly string[], replaced: string, adding: string): string[] {
  if (list.includes(adding)) return [...list];
  const index = list.indexOf(replaced);
  if (index === -1) return addToCompare(list, adding).list;
  const next = [...list];
  next[index] = adding;
  return next;
}

/**
 * The order of rows: what shoppers compare first (size and cutout, cooking
 * area and power, fuel and class), then every other specification in the
 * order the first product that has it lists it.
 */
const ROW_ORDER = [
  "Fuel Type",
  "Class",
  "Collection",
  "Configuration",
  "Width",
  "Depth",
  "Height",
  "Cutout Width",
  "Cut Out Width",
  "Cutout Depth",
  "Cut Out Depth",
  "Cutout Height",
  "Cut Out Height",
  "Main Grilling Area",
  "Total Grilling Area",
  "Secondary Grilling Area",
  "Burger Count",
  "Number Of Main Burners",
  "Grilling Surface BTUs",
  "BTU",
  "BTUs",
  "Total BTUs",
  "Total Btus",
  "Watts",
  "Avg Heat Area",
  "Grill Model",
  "Material",
  "Made In USA",
];

const HIDDEN = new Set(["Details", ""]);

export interface CompareRow {
  name: string;
  /** One value per product, null where the product does not list it. */
  values: Array<string | null>;
  differs: boolean;
}

function normalizeText(value: string): string {
  return value.trim().replace(/\s+/g, " ").toLowerCase();
}

export function compareRows(products: ReadonlyArray<{ specifications: readonly Specification[] }>): CompareRow[] {
  const maps = products.map((product) => specMap(product.specifications));
  const names: string[] = [];
  for (const map of maps) for (const name of map.keys()) if (!HIDDEN.has(name) && !names.includes(name)) names.push(name);
  const rank = (name: string) => {
    const index = ROW_ORDER.indexOf(name);
    return index === -1 ? ROW_ORDER.length : index;
  };
  const ordered = names.map((name, index) => ({ name, index })).sort((a, b) => rank(a.name) - rank(b.name) || a.index - b.index);
  return ordered.map(({ name }) => {
    const values = maps.map((map) => {
      const value = map.get(name);
      return value === undefined || value.trim() === "" ? null : value;
    });
    const distinct = new Set(values.map((value) => (value === null ? "\u0000" : normalizeText(value))));
    return { name, values, differs: products.length > 1 && distinct.size > 1 };
  });
}
