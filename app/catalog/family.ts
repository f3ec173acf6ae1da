import type { CatalogProduct } from "./product";
import { OWN_SEASONING_ID } from "./product";
import { stripBrandPrefix } from "./brands";

/**
 * Product families used for the wording of a description and the variation
 * rules (the drawings use the finer kinds of kind.ts). Derived from the
 * category path first and the title second.
 */
export const CATEGORY_FAMILIES = [
  "grill",
  "griddle",
  "kamado",
  "pizza-oven",
  "heater",
  "fire-pit",
  "refrigerator",
  "cabinet",
  "furniture",
  "cover",
  "accessory",
  "seasoning",
] as const;

export type CategoryFamily = (typeof CATEGORY_FAMILIES)[number];

export type FamilyInput = Pick<CatalogProduct, "Title" | "Category"> &
  Partial<Pick<CatalogProduct, "Id" | "brand">>;

/**
 * The product-type part of a title: without a leading brand name, without the trailing " - MODEL" and
 * without qualifiers such as " with ...", " w/ ...", " for ...", " on cart".
 * "Blaze Grill Cover For 32-Inch Grills - 3PROBICV" -> "Grill Cover".
 */
export function titleHead(title: string): string {
  let head = stripBrandPrefix(title);
  const dash = head.search(/\s[-–]\s/);
  if (dash > 0) head = head.slice(0, dash);
  const cut = head.search(/\s(?:(?:with|for|on|in|by|includes?)\s|w\/)/i);
  if (cut > 0) head = head.slice(0, cut);
  return head.replace(/\s+w\/$/i, "").trim();
}

/** Category name (any level) -> family, checked from the deepest name up. */
const CATEGORY_NAME_RULES: ReadonlyArray<readonly [RegExp, CategoryFamily]> = [
  [/\bseasonings?\b|\brubs\b/i, "seasoning"],
  [/\bcovers?\b/i, "cover"],
  [/\bpizza (?:oven attachments|accessories)\b/i, "accessory"],
  [/\bkamado (?:grill accessories|cooking grids|rotisseries|heat|firebox|grill tables)/i, "accessory"],
  [/\bpizza ovens?\b/i, "pizza-oven"],
  [/\bkamado\b/i, "kamado"],
  [/\bgriddles?\b|\bflat top\b/i, "griddle"],
  [/\bpatio heater (?:accessories|mounts|remotes)/i, "accessory"],
  [/\bheaters?\b/i, "heater"],
  [/\bfire pit (?:accessories|tools|spark|wind|decor|ornaments|installation)/i, "accessory"],
  [/\bfire pit & fire table furniture/i, "furniture"],
  [/\bfire (?:pits?|bowls?|tables?)\b|\bfireplaces?\b|\bready-to-finish fire/i, "fire-pit"],
  [
    /\brefrigerat|\bice makers?\b|\bkegerators?\b|\bwine coolers?\b|\bbeverage (?:centers?|dispensers?)\b/i,
    "refrigerator",
  ],
  [/\bside burners?\b|\bpower burners?\b|\bsearing stations?\b/i, "grill"],
  [/\bspice racks?\b/i, "cabinet"],
  [
    /\baccessor|\breplacement\b|\bparts\b|\btools?\b|\butensils\b|\btongs\b|\blifters?\b|\bbrushes\b|\bmops\b|\bskewers\b|\blighters?\b|\bstarters?\b|\bsmoker (?:boxes|trays)\b|\blights\b|\bdrip pans\b|\btimers\b|\bsearing kits\b|\bscrapers\b|\bthermometers?\b|\bhoses\b|\bvalves\b|\bknobs\b|\bracks\b|\bbaskets\b|\bplanks\b|\bwoks\b|\broasters\b|\btrim kits\b|\bvent (?:panels|hoods|inserts)\b|\bwind guards\b|\bjackets\b|\bumbrella\b|\baprons\b|\bgloves\b|\bpellets\b|\bcharcoal trays\b|\bside shelves\b/i,
    "accessory",
  ],
  [/\bfurniture\b|\bchairs?\b|\blounges?\b|\bseating\b|\bbar stools?\b|\btables?\b/i, "furniture"],
  [
    /\bcabinets?\b|\bstorage\b|\bdrawers?\b|\bdoors?\b|\bislands?\b|\btrash\b|\bpaper towel\b|\bspice racks?\b|\btank bins\b|\bsinks?\b|\bbar centers?\b|\bice bins\b|\bblenders?\b|\bcarts?\b/i,
    "cabinet",
  ],
  [/\bequipment packages\b|\bfryers?\b|\bgrills?\b|\bsmokers?\b/i, "grill"],
];

/** Title head keywords -> family, for products whose category says little. */
const TITLE_RULES: ReadonlyArray<readonly [RegExp, CategoryFamily]> = [
  [/\b(?:seasoning|rub|spice blend)\b/i, "seasoning"],
  [/\bcovers?\b/i, "cover"],
  [
    /\b(?:kit|grids?|grates?|knobs?|hoses?|regulators?|valves?|thermometers?|tongs|brush|scraper|spatula|skewers?|racks?|baskets?|lights?|jackets?|liners?|trim|panels?|guards?|plates?|stones?|screens?|remotes?|brackets?|mounts?|tools?|toolkit|burner tubes?|igniters?|probes?|pans?|trays?)\b/i,
    "accessory",
  ],
  [/\bpizza ovens?\b/i, "pizza-oven"],
  [/\bkamado\b/i, "kamado"],
  [/\b(?:griddles?|flat tops?)\b/i, "griddle"],
  [/\bheaters?\b/i, "heater"],
  [/\b(?:fire ?pits?|fire bowls?|fire tables?|fire urns?|fireplaces?)\b/i, "fire-pit"],
  [/\b(?:refrigerators?|fridges?|ice makers?|kegerators?|wine coolers?|beverage centers?)\b/i, "refrigerator"],
  [
    /\b(?:chairs?|lounges?|lounger|chaise|sofa|stools?|ottoman|sectional|dining set|end table|side table|credenza|umbrella)\b/i,
    "furniture",
  ],
  [/\b(?:doors?|drawers?|cabinets?|islands?|storage|trash|bins?|sinks?|carts?)\b/i, "cabinet"],
  [/\b(?:grills?|smokers?|burners?|fryers?|searing stations?)\b/i, "grill"],
];

/** Maps a product to the family used for its description. */
export function categoryFamily(product: FamilyInput): CategoryFamily {
  if (product.brand === "custom_product" || product.Id === OWN_SEASONING_ID) return "seasoning";
  const names = product.Category.filter((name) => name !== "Home");
  const head = titleHead(product.Title);
  // A cover is a cover whatever department it is filed under.
  if (/\bcovers?\b/i.test(head) && !/\bwith\b/i.test(head)) return "cover";
  for (let i = names.length - 1; i >= 0; i -= 1) {
    const name = names[i] ?? "";
    for (const [pattern, family] of CATEGORY_NAME_RULES) {
      if (pattern.test(name)) return family;
    }
  }
  for (const [pattern, family] of TITLE_RULES) {
    if (pattern.test(head)) return family;
  }
  for (const [pattern, family] of TITLE_RULES) {
    if (pattern.test(product.Title)) return family;
  }
  return "accessory";
}

/** Gas appliances (installation warning in the legal section). */
export function isGasProduct(product: Pick<CatalogProduct, "Title" | "Specifications">): boolean {
  const fuel = product.Specifications.map((entry) => {
    const [key, value] = Object.entries(entry)[0] ?? ["", ""];
    return /fuel type|gas type/i.test(key) ? value : "";
  }).join(" ");
  if (/gas|propane|\blp\b|\bng\b/i.test(fuel)) return true;
  return (
    /\b(?:natural gas|propane|gas)\b/i.test(titleHead(product.Title)) ||
    /\b(?:natural gas|propane)\b/i.test(product.Title)
  );
}
