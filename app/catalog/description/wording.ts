import { stripBrandPrefix } from "../brands";

/** Small English helpers the paragraphs share. */

/** "115 Volts" / "120V" / "240" -> "115 volt" style wording. */
export function volts(value: string): string {
  const number = /^(\d+(?:\.\d+)?)\s*(?:v|volts?)?$/i.exec(value.trim())?.[1];
  return number ? `${number} volt` : value;
}

/** The name without a leading brand ("American Made Grills 24-Inch Wine Cooler" -> "24-Inch Wine Cooler"). */
export function shortName(name: string): string {
  const short = stripBrandPrefix(name);
  return short.length > 0 ? short : name;
}

export function listJoin(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

export function lower(value: string): string {
  return /^[A-Z][a-z]/.test(value) ? value.toLowerCase() : value;
}
