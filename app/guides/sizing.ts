import { formatNumber } from "~/utils/number-format";
/**
 * The sizing helpers' rules (pure; the product queries are in sizing.server.ts).
 *
 * HEATERS. Rule of thumb of electric patio heater sizing guides: about
 * 20 W of infrared heat per square foot of a covered patio
 * (COVERED_WATTS_PER_SQFT). Our own assumptions, stated so they can be
 * argued with: an open patio loses heat to wind and sky, so it needs half as
 * much again (OPEN_FACTOR 1.5); a mild climate (US hardiness zones 9-11,
 * coastal winters) needs less and a cold one (zones 3-5) more
 * (CLIMATE_FACTORS 0.8 / 1 / 1.3). Gas heaters are rated in BTU per hour:
 * 1 W = 3.412 BTU/h (the physical conversion). A patio may need several
 * heaters; each listed heater says how many of it meet the need.
 *
 * GRILLS. Grill buying guides commonly recommend about 400-500 sq in of main
 * grilling area for a family of four to six; we use 80 sq in per person with
 * at least 300 sq in (MIN_AREA), which meets that range. Hosting more often
 * means bigger crowds and side dishes on the grates, so the area grows with
 * how often you host (HOSTING_FACTORS, our assumption: rarely 1, monthly
 * 1.25, weekly 1.5). The burger count is one burger per person per round,
 * with the same factor. Grills are matched on the catalogue's own
 * `Main Grilling Area` and `Burger Count`.
 */

export const COVERED_WATTS_PER_SQFT = 20;
export const OPEN_FACTOR = 1.5;
export const WATTS_TO_BTU = 3.412;
export const CLIMATE_FACTORS = { mild: 0.8, moderate: 1, cold: 1.3 } as const;
export type Climate = keyof typeof CLIMATE_FACTORS;
export const CLIMATE_LABELS: Record<Climate, string> = {
  mild: "Mild winters (US zones 9-11, e.g. coastal California, Florida)",
  moderate: "Moderate winters (US zones 6-8)",
  cold: "Cold winters (US zones 3-5)",
};

export interface HeaterNeed {
  areaSqFt: number;
  covered: boolean;
  climate: Climate;
  watts: number;
  btu: number;
  rule: string;
}

const roundTo = (value: number, step: number) => Math.ceil(value / step) * step;

export function heaterNeed(areaSqFt: number, covered: boolean, climate: Climate): HeaterNeed {
  const perSqFt = COVERED_WATTS_PER_SQFT * (covered ? 1 : OPEN_FACTOR) * CLIMATE_FACTORS[climate];
  const watts = roundTo(areaSqFt * perSqFt, 100);
  const btu = roundTo(watts * WATTS_TO_BTU, 1000);
  const rule =
    `${formatNumber(areaSqFt)} sq ft × ${COVERED_WATTS_PER_SQFT} W per sq ft for a covered patio` +
    (covered ? "" : ` × ${OPEN_FACTOR} because it is open to wind and sky`) +
    (climate === "moderate" ? "" : ` × ${CLIMATE_FACTORS[climate]} for ${climate === "mild" ? "mild" : "cold"} winters`) +
    ` = about ${formatNumber(watts)} W of electric heat, or ${formatNumber(btu)} BTU per hour of gas heat (1 W = ${WATTS_TO_BTU} BTU/h).`;
  return { areaSqFt, covered, climate, watts, btu, rule };
}

/** How many of a heater meet the need (at least one). */
export function heatersNeeded(
  need: Pick<HeaterNeed, "watts" | "btu">,
  heater: { watts?: number | null; btu?: number | null },
): number | null {
  if (heater.watts) return Math.max(1, Math.ceil(need.watts / heater.watts));
  if (heater.btu) return Math.max(1, Math.ceil(need.btu / heater.btu));
  return null;
}

export const MIN_AREA = 300;
export const AREA_PER_PERSON = 80;
export const HOSTING_FACTORS = { rarely: 1, monthly: 1.25, weekly: 1.5 } as const;
export type Hosting = keyof typeof HOSTING_FACTORS;
export const HOSTING_LABELS: Record<Hosting, string> = {
  rarely: "Rarely: mostly the household",
  monthly: "About once a month",
  weekly: "Every week or more",
};

export interface GrillNeed {
  people: number;
  hosting: Hosting;
  areaSqIn: number;
  burgers: number;
  rule: string;
}

export function grillNeed(people: number, hosting: Hosting): GrillNeed {
  const factor = HOSTING_FACTORS[hosting];
  const areaSqIn = roundTo(Math.max(MIN_AREA, people * AREA_PER_PERSON) * factor, 10);
  const burgers = Math.ceil(people * factor);
  const rule =
    `${people} ${people === 1 ? "person" : "people"} × ${AREA_PER_PERSON} sq in each (at least ${MIN_AREA} sq in)` +
    (factor === 1 ? "" : ` × ${factor} because you host ${hosting === "weekly" ? "every week" : "about once a month"}`) +
    ` = a main grilling area of at least ${formatNumber(areaSqIn)} sq in, holding ${burgers} burgers at once.`;
  return { people, hosting, areaSqIn, burgers, rule };
}

/** Reads a positive number (commas allowed) up to `max`; null when it is not one. */
export function readPositive(text: string, max: number): number | null {
  const value = Number(text.replace(/[,\s]/g, ""));
  return text.trim() !== "" && Number.isFinite(value) && value > 0 && value <= max ? value : null;
}

export interface HeaterForm {
  values: Record<"area" | "length" | "width" | "covered" | "climate", string>;
  errors: Partial<Record<"area", string>>;
  need: HeaterNeed | null;
}

/** /heater-helper's query: an area, or length × width; open or covered; climate. */
export function parseHeaterSearch(search: URLSearchParams): HeaterForm {
  const get = (name: string) => (search.get(name) ?? "").slice(0, 40);
  const values = { area: get("area"), length: get("length"), width: get("width"), covered: get("covered"), climate: get("climate") };
  const climate: Climate = values.climate in CLIMATE_FACTORS ? (values.climate as Climate) : "moderate";
  const covered = values.covered !== "open";
  const submitted = [values.area, values.length, values.width].some((value) => value.trim() !== "");
  if (!submitted) return { values, errors: {}, need: null };
  const area = values.area.trim()
    ? readPositive(values.area, 20_000)
    : (() => {
        const length = readPositive(values.length, 500);
        const width = readPositive(values.width, 500);
        return length && width ? Math.round(length * width) : null;
      })();
  if (!area)
    return {
      values,
      errors: { area: "Enter the patio's area in square feet (up to 20,000), or its length and width in feet" },
      need: null,
    };
  return { values, errors: {}, need: heaterNeed(area, covered, climate) };
}

export interface GrillForm {
  values: Record<"people" | "hosting" | "fuel", string>;
  errors: Partial<Record<"people", string>>;
  need: GrillNeed | null;
}

export function parseGrillSearch(search: URLSearchParams): GrillForm {
  const get = (name: string) => (search.get(name) ?? "").slice(0, 40);
  const values = { people: get("people"), hosting: get("hosting"), fuel: get("fuel") };
  const hosting: Hosting = values.hosting in HOSTING_FACTORS ? (values.hosting as Hosting) : "rarely";
  if (values.people.trim() === "") return { values, errors: {}, need: null };
  const people = readPositive(values.people, 100);
  if (!people || !Number.isInteger(people))
    return { values, errors: { people: "Enter how many people you cook for, from 1 to 100" }, need: null };
  return { values, errors: {}, need: grillNeed(people, hosting) };
}
