import { titleHead } from "../family";

/**
 * Category derivation for records without a usable Category (the older
 * `products.json` shape has none; one brand record has only ["Home"]).
 *
 * The importer tries, in order:
 *   1. the Category of a brand-file record with the same Id;
 *   2. the Category of a brand-file record with the same Model;
 *   3. the first title-keyword rule below whose path exists in the brand files
 *      (rules look at the product-type part of the title, so "Grill Cover for
 *      36-Inch Grills" is a cover and "Power Burner" a side burner);
 *   4. FALLBACK_CATEGORY.
 * Only paths that exist in the brand files are ever produced.
 */

export const FALLBACK_CATEGORY: readonly string[] = [
  "Home",
  "BBQ Grilling Tools & Accessories",
  "Miscellaneous Accessories",
];

const ACC = "Home > BBQ Grilling Tools & Accessories";
const PARTS = `${ACC} > Grill and Smoker Replacement Parts`;
const OK = "Home > Outdoor Kitchens";
const STORAGE = `${OK} > Outdoor Kitchen Cabinets & Storage`;
const DOORS = `${STORAGE} > Outdoor Kitchen Doors & Drawers`;
const FRIDGE = `${OK} > Outdoor Refrigeration`;
const SIDE = `${OK} > Side Burners for Grills and Outdoor Kitchens`;
const INSTALL = `${OK} > BBQ Island Installation Components`;
const BUILT_IN = `${OK} > Built-In Grills`;
const GRILLS = "Home > BBQ Grills & Smokers";
const HEAT = "Home > Outdoor Living > Outdoor Heating & Accessories";
const PITS = `${HEAT} > Outdoor Fire Pits`;
const FURN = "Home > Outdoor Living > Outdoor Patio Furniture";

type Rule = {
  /** Tested against the product-type part of the title (see titleHead). */
  pattern: RegExp;
  /** Optionally also required of the whole title. */
  also?: RegExp;
  /** Path as "Home > A > B"; a function when built-in and freestanding differ. */
  path: string | ((ctx: { builtIn: boolean; freestanding: boolean }) => string);
};

/** Ordered: specific parts and accessories first, whole appliances last. */
export const CATEGORY_TITLE_RULES: readonly Rule[] = [
  { pattern: /\bpizza oven covers?\b/i, path: `${ACC} > BBQ & Grill Covers > Pizza Oven Covers` },
  {
    pattern: /\b(?:outdoor kitchen|island|cabinet|refrigerator|burner) covers?\b/i,
    path: `${ACC} > BBQ & Grill Covers > Outdoor Kitchen Covers`,
  },
  { pattern: /\bfire (?:pit|table) covers?\b/i, path: `${PITS} > Fire Pit Accessories > Fire Pit Covers` },
  { pattern: /\bcovers?\b/i, path: `${ACC} > BBQ & Grill Covers > Grill & Smoker Covers` },
  {
    pattern: /\b(?:replacement doors?|door liners?|keg taps?|taps?)\b/i,
    path: "Home > Appliance Installation and Repair Parts",
  },
  { pattern: /\b\d+-piece\b|\bpackages?\b/i, path: `${OK} > Outdoor Kitchen Equipment Packages` },
  {
    pattern: /\b(?:tables?|carts?|stands?|cradles?)\b/i,
    also: /\b(?:kamado|primo|oval)\b/i,
    path: `${ACC} > Kamado Grill Accessories > Kamado Grill Tables & Carts`,
  },
  {
    pattern: /\b(?:heat deflectors?|deflector plates?|racks?)\b/i,
    also: /\b(?:kamado|primo|oval)\b/i,
    path: `${ACC} > Kamado Grill Accessories > Kamado Heat Deflector Plates & Racks`,
  },
  { pattern: /\bfirebox dividers?\b/i, path: `${ACC} > Kamado Grill Accessories > Kamado Firebox Dividers` },
  {
    pattern: /\b(?:cooking )?(?:grids?|grates?)\b/i,
    also: /\b(?:kamado|primo|oval)\b/i,
    path: `${ACC} > Kamado Grill Accessories > Kamado Cooking Grids`,
  },
  {
    pattern: /\b(?:mounts?|brackets?|poles?|frames?)\b/i,
    also: /\b(?:heaters?|heating|tungsten|platinum)\b/i,
    path: `${HEAT} > Patio Heaters > Patio Heater Mounts, Brackets, & Frames`,
  },
  {
    pattern: /\b(?:remotes?|controllers?|dimmers?)\b/i,
    also: /\b(?:heaters?|heating)\b/i,
    path: `${HEAT} > Patio Heaters > Patio Heater Remotes & Control Systems`,
  },
  {
    pattern: /\brotisserie\b.*\b(?:kamado|primo|oval|egg)\b|\b(?:kamado|primo|oval)\b.*\brotisserie\b/i,
    path: `${ACC} > Kamado Grill Accessories > Kamado Rotisseries`,
  },
  { pattern: /\brotisserie\b/i, path: `${ACC} > Miscellaneous Accessories` },
  { pattern: /\b(?:jackets?|liners?)\b/i, path: `${INSTALL} > Insulated Grill Jackets` },
  { pattern: /\btrim(?: kits?)?\b/i, path: `${INSTALL} > BBQ Island Trim Kits` },
  { pattern: /\bvent(?:ing)? panels?\b/i, path: `${INSTALL} > BBQ Island Vent Panels` },
  { pattern: /\bwind (?:guards?|deflectors?)\b/i, path: `${INSTALL} > Grill Wind Guards & Deflectors` },
  { pattern: /\bknobs?\b/i, path: `${PARTS} > Grill Replacement Control Knobs` },
  { pattern: /\b(?:hoses?|regulators?)\b/i, path: `${PARTS} > Gas Hoses & Regulators` },
  { pattern: /\bvalves?\b/i, path: `${PARTS} > Gas Valves` },
  { pattern: /\bwarming racks?\b/i, path: `${PARTS} > Warming Racks` },
  { pattern: /\bthermometers?\b/i, path: `${ACC} > Grill Thermometers` },
  {
    pattern: /\bsmoker (?:box|boxes|trays?)\b/i,
    path: `${ACC} > Charcoal, Pellets & Starters > Smoker Boxes & Smoker Trays`,
  },
  { pattern: /\b(?:lights?|led(?: \d+ piece)? sets?)\b/i, path: `${ACC} > Grill Attachments > BBQ Grill Lights` },
  {
    pattern: /\b(?:infrared|sear) (?:sear )?burners?\b|\bsearing kits?\b/i,
    path: `${ACC} > Grill Attachments > Infrared Burners & Searing Kits`,
  },
  { pattern: /\bside shel(?:f|ves)\b|\bshelf\b/i, path: `${ACC} > Grill Attachments > Grill Side Shelves & Tables` },
  {
    pattern:
      /\b(?:flame tamers?|heat (?:shields?|plates?)|igniters?|ignitors?|electrodes?|manifolds?|briquettes?|briquette trays?|heat zone separators?|drip trays?|grease trays?|thermocouples?|orifices?|conversion kits?|hinges?|handles?)\b/i,
    path: `${PARTS} > Miscellaneous Grill Replacement Parts`,
  },
  { pattern: /\bracks?\b/i, path: `${ACC} > Outdoor Cookware > Grill Racks` },
  { pattern: /\bmodular\b/i, path: `${INSTALL} > Finished Modular BBQ Island Cabinets` },
  { pattern: /\bwarming drawers?\b/i, path: `${OK} > Outdoor Warming Drawers` },
  { pattern: /\bdoors? (?:&|and) (?:\w+ )?drawers?\b/i, path: `${DOORS} > Outdoor Kitchen Door & Drawer Combos` },
  { pattern: /\bdrawers?\b/i, path: `${DOORS} > Outdoor Kitchen Storage Drawers` },
  { pattern: /\bdoors?\b/i, path: `${DOORS} > BBQ & Outdoor Kitchen Access Doors` },
  { pattern: /\b(?:trash|recycling)\b/i, path: `${STORAGE} > Outdoor Kitchen Trash and Recycling Bins` },
  { pattern: /\bpaper towel\b/i, path: `${STORAGE} > Outdoor Kitchen Paper Towel Bins` },
  { pattern: /\bpropane tank\b/i, path: `${STORAGE} > Outdoor Kitchen Propane Tank Bins` },
  { pattern: /\bspice racks?\b/i, path: `${STORAGE} > Outdoor Kitchen Spice Racks` },
  {
    pattern: /\b(?:sinks?|faucets?)\b/i,
    path: `${OK} > Outdoor Sink Stations and Bar Centers > Outdoor Kitchen Sinks & Faucets`,
  },
  { pattern: /\bice (?:makers?|machines?)\b/i, path: `${FRIDGE} > Outdoor Ice Makers & Ice Machines` },
  { pattern: /\bkegerators?\b/i, path: `${FRIDGE} > Outdoor Kegerators & Beverage Dispensers` },
  { pattern: /\bwine coolers?\b/i, path: `${FRIDGE} > Outdoor Wine Coolers` },
  {
    pattern: /\bbeverage (?:centers?|refrigerators?)\b/i,
    path: `${FRIDGE} > Outdoor Beverage Refrigerators | Beverage Centers`,
  },
  { pattern: /\b(?:refrigerators?|fridges?)\b/i, path: `${FRIDGE} > Outdoor Compact Refrigerators` },
  { pattern: /\b(?:end|side) tables?\b/i, path: `${FURN} > Outdoor Seating Furniture > Outdoor End Tables` },
  {
    pattern: /\b(?:ice bins?|ice chests?|coolers?)\b/i,
    path: `${OK} > Outdoor Sink Stations and Bar Centers > Outdoor Kitchen Ice Bins & Coolers`,
  },
  {
    pattern: /\b(?:vent|range) hoods?\b/i,
    path: `${OK} > Outdoor Kitchen & Grill Ventilation > Outdoor Vent Hoods: Grill & Range Hoods`,
  },
  { pattern: /\bpower burners?\b/i, path: `${SIDE} > Power Burners` },
  { pattern: /\bsear(?:ing)? (?:stations?|zones? burners?)\b/i, path: `${SIDE} > Infrared Searing Stations` },
  { pattern: /\b(?:side|double|single) burners?\b/i, path: `${SIDE} > Conventional Side Burners` },
  {
    pattern: /\bpizza ovens?\b/i,
    path: ({ builtIn, freestanding }) =>
      builtIn
        ? `${GRILLS} > Outdoor Pizza Ovens > Built-In Pizza Ovens`
        : freestanding
        ? `${GRILLS} > Outdoor Pizza Ovens > Freestanding Pizza Ovens`
        : `${GRILLS} > Outdoor Pizza Ovens > Countertop Pizza Ovens`,
  },
  {
    pattern: /\b(?:griddles?|flat tops?(?: grills?)?)\b/i,
    path: ({ builtIn }) =>
      builtIn
        ? `${BUILT_IN} > Built-In Gas Griddles & Flat Top Grills`
        : `${GRILLS} > Outdoor Flat Top Grills & Gas Griddles`,
  },
  {
    pattern: /\bkamado(?: grills?| smokers?)?\b/i,
    path: ({ builtIn }) => (builtIn ? `${BUILT_IN} > Built-in Kamado Grills` : `${GRILLS} > Kamado Grills & Smokers`),
  },
  {
    pattern: /\bpellet (?:grills?|smokers?)\b/i,
    path: ({ builtIn }) =>
      builtIn ? `${BUILT_IN} > Built-In Pellet Grills` : `${GRILLS} > Pellet Grills & Wood Pellet Smokers`,
  },
  {
    pattern: /\bcharcoal (?:grills?|smokers?)\b/i,
    path: ({ builtIn }) => (builtIn ? `${BUILT_IN} > Built-In Charcoal Grills` : `${GRILLS} > Charcoal BBQ Grills`),
  },
  {
    pattern: /\belectric grills?\b/i,
    path: ({ builtIn }) => (builtIn ? `${BUILT_IN} > Built-In Electric Grills` : `${GRILLS} > Electric Outdoor Grills`),
  },
  { pattern: /\bcarts?\b/i, path: `${ACC} > BBQ Grill Carts: Outdoor Grill & Smoker Carts` },
  {
    pattern: /\bheaters?\b/i,
    path: ({ freestanding }) =>
      freestanding
        ? `${HEAT} > Patio Heaters > Freestanding Patio Heaters`
        : `${HEAT} > Patio Heaters > Ceiling & Wall Mounted Outdoor Heaters`,
  },
  { pattern: /\bfire (?:pit )?tables?\b/i, path: `${PITS} > Fire Pit Tables` },
  { pattern: /\bfire bowls?\b/i, path: `${PITS} > Fire Bowls` },
  { pattern: /\bfireplaces?\b/i, path: `${HEAT} > Outdoor Fireplaces > Outdoor Gas Fireplaces` },
  { pattern: /\bfire ?pits?\b/i, path: `${PITS} > Gas Fire Pits` },
  { pattern: /\bsets?\b/i, also: /\bfire (?:pit|table)s?\b/i, path: `${FURN} > Fire Pit & Fire Table Furniture Sets` },
  { pattern: /\bsets?\b/i, path: `${FURN} > Outdoor Seating Furniture > Outdoor Seating Sets` },
  { pattern: /\b(?:chaise|loungers?|lounges?)\b/i, path: `${FURN} > Outdoor Chaise Lounge Furniture` },
  { pattern: /\bbar stools?\b/i, path: `${FURN} > Outdoor Bar Furniture > Outdoor Bar Stools` },
  { pattern: /\bchairs?\b/i, path: `${FURN} > Outdoor Chairs > Outdoor Club Chairs` },
  { pattern: /\bislands?\b/i, path: `${OK} > Outdoor Kitchen Islands` },
  { pattern: /\bcabinets?\b/i, path: `${DOORS} > Outdoor Kitchen Enclosed Cabinets` },
  {
    pattern: /\b(?:grills?|smokers?)\b|\b\d+-burner\b/i,
    path: ({ builtIn }) => (builtIn ? `${BUILT_IN} > Built-In Gas Grills` : `${GRILLS} > Gas Grills`),
  },
  { pattern: /\bburners?\b/i, path: `${PARTS} > Gas Grill Replacement Burners` },
  { pattern: /\b(?:grates?|grids?|parts?)\b/i, path: `${PARTS} > Miscellaneous Grill Replacement Parts` },
];

export function pathKey(path: readonly string[]): string {
  return path.join(" > ");
}

export type TitleCategory = { path: string[]; rule: "title keywords" | "fallback" };

/**
 * Category from title keywords, limited to paths in `knownPaths` (keys made
 * with pathKey). Falls back to FALLBACK_CATEGORY (or, should that not exist,
 * the first known path in code-point order, or ["Home"]).
 */
export function categoryFromTitle(title: string, knownPaths: ReadonlySet<string>): TitleCategory {
  const head = titleHead(title);
  const beforeModel = title.replace(/\s[-–]\s[^-–]*$/, "");
  const ctx = {
    builtIn: /\bbuilt[- ]?in\b/i.test(beforeModel) && !/\bfor built[- ]?in\b/i.test(beforeModel),
    freestanding: /\b(?:freestanding|free-standing|carts?|stands?|pedestal|legs|portable)\b/i.test(beforeModel),
  };
  // The product type is usually the last noun of the head ("Right Hinge
  // Refrigerator", "Power Burner Grill Liner"), so the rule whose match ends
  // furthest right wins; ties go to the earlier (more specific) rule.
  let best: { end: number; path: string } | null = null;
  for (const rule of CATEGORY_TITLE_RULES) {
    if (rule.also && !rule.also.test(title)) continue;
    const end = lastMatchEnd(rule.pattern, head);
    if (end < 0 || (best && end <= best.end)) continue;
    const path = typeof rule.path === "string" ? rule.path : rule.path(ctx);
    if (knownPaths.has(path)) best = { end, path };
  }
  if (best) return { path: best.path.split(" > "), rule: "title keywords" };
  if (knownPaths.has(pathKey(FALLBACK_CATEGORY))) {
    return { path: [...FALLBACK_CATEGORY], rule: "fallback" };
  }
  const first = [...knownPaths].sort()[0];
  return { path: first ? first.split(" > ") : ["Home"], rule: "fallback" };
}

/** End index of the last match of `pattern` in `text`, or -1. */
function lastMatchEnd(pattern: RegExp, text: string): number {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  const global = new RegExp(pattern.source, flags);
  let end = -1;
  for (const match of text.matchAll(global)) {
    end = Math.max(end, (match.index ?? 0) + match[0].length);
  }
  return end;
}
