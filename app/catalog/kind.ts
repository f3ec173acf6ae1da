import type { CatalogProduct } from "./product";
import { OWN_SEASONING_ID } from "./brands";
import { specValue } from "./product";
import { titleHead } from "./family";

/**
 * What a product is, finely enough to draw it so that a shopper tells it apart
 * at a glance (app/catalog/drawings.server.ts has one drawing per kind): a grill
 * head built into an island and the same grill on a cart are different kinds,
 * a cover is drawn after what it covers, a regulator is not a thermometer.
 *
 * Read from the category path (the deepest name first) and the title's words;
 * the `Configuration` specification settles a grill the title leaves open.
 * Deterministic and cheap: the image route classifies on every cache miss.
 */
export const PRODUCT_KINDS = [
  // Cooking
  "grill-built-in",
  "grill-cart",
  "grill-portable",
  "kettle",
  "kamado",
  "pellet-grill",
  "griddle-built-in",
  "griddle-cart",
  "pizza-oven",
  "pizza-oven-cart",
  "side-burner",
  "island",
  "vent-hood",
  // Heating
  "heater-patio",
  "heater-mounted",
  "fire-pit",
  "fire-table",
  "fireplace",
  // Furniture
  "chaise",
  "chair",
  "seating-set",
  "table",
  // Covers, after what they cover
  "cover-grill-head",
  "cover-cart",
  "cover-kamado",
  "cover-pizza-oven",
  "cover-box",
  "cover-fire-pit",
  "cover-furniture",
  // Outdoor kitchen storage, refrigeration and bars
  "door",
  "drawer",
  "cabinet",
  "trash-bin",
  "paper-towel",
  "shelf",
  "cart",
  "refrigerator",
  "glass-fridge",
  "kegerator",
  "ice-maker",
  "ice-bin",
  "sink",
  "bar-center",
  "jacket",
  "trim-kit",
  "wind-guard",
  // Accessories and parts
  "rack",
  "rotisserie",
  "tool",
  "cookware",
  "smoker-box",
  "thermometer",
  "regulator",
  "burner",
  "knob",
  "light",
  "remote",
  "mount",
  "bag",
  "part",
  "seasoning",
] as const;

export type ProductKind = (typeof PRODUCT_KINDS)[number];

export type KindInput = Pick<CatalogProduct, "Title" | "Category"> &
  Partial<Pick<CatalogProduct, "Id" | "brand" | "Specifications">>;

const CART_WORDS =
  /\b(?:on (?:a |the )?(?:deluxe |refrigerated |steel |upgraded |universal |portable )?(?:cart|pedestal|stand|patio post|post)|w(?:ith|\/) ?(?:a |the )?(?:deluxe |upgraded |coyote universal |universal |steel )?(?:cart|stand|pedestal)|freestanding|free standing|on legs)\b/;
const BUILT_IN_WORDS = /\b(?:built[- ]?in|countertop|drop[- ]?in|grill head|island grill)\b/;

/** A grill, griddle or the like: which shape of it. */
function cookerKind(text: string, category: string, configuration: string): ProductKind {
  if (/\bpellet grill|\bpellet smoker|\bwood pellet grill/.test(text) || /pellet grills/.test(category)) return "pellet-grill";
  if (/\bkamado\b|\bceramic (?:grill|kamado)|\basado\b/.test(text)) return "kamado";
  if (/\bisland\b|kitchen package|\bpavilion\b/.test(text)) return "island";
  if (/\bgriddle|flat top|teppanyaki|cooking station/.test(text) || /griddles|flat top/.test(category)) {
    return !CART_WORDS.test(text) && (BUILT_IN_WORDS.test(text) || /built-in/.test(category)) ? "griddle-built-in" : "griddle-cart";
  }
  if (/\bkettle\b/.test(text)) return "kettle";
  if (CART_WORDS.test(text)) return "grill-cart";
  if (/\bportable\b|\btabletop\b|\btravelq\b/.test(text) || /portable grills/.test(category)) return "grill-portable";
  if (BUILT_IN_WORDS.test(text) || /built-in/.test(category)) return "grill-built-in";
  if (/^(?:built-in|countertop|drop-in)/.test(configuration)) return "grill-built-in";
  return "grill-cart";
}

/** A cover, drawn after what it covers. */
function coverKind(text: string, brand: string | undefined): ProductKind {
  if (/pizza oven/.test(text)) return "cover-pizza-oven";
  if (/fire (?:pit|table|bowl)|tank cover|transit case/.test(text)) return "cover-fire-pit";
  if (/\bkamado\b|\bceramic\b|\boval\b|\basado\b/.test(text) || brand === "primo") return "cover-kamado";
  if (/\b(?:chair|chaise|lounge|lounger|sofa|sectional|ottoman|furniture|dining set)\b/.test(text)) return "cover-furniture";
  if (/burner|ice bin|cooler|beverage|refrigerator|refreshment|caddy|\bsink\b|grid cover/.test(text)) return "cover-box";
  if (/\bbuilt[- ]?in\b|\bbicv\b/.test(text)) return "cover-grill-head";
  if (/\bfreestanding\b|\bcart|\bportable\b|\bpedestal\b|\bpost\b|\bgriddle/.test(text)) return "cover-cart";
  return "cover-grill-head";
}

/** Accessories and parts, by the words of their title (the category says little: "Miscellaneous Accessories"). */
const PART_RULES: ReadonlyArray<readonly [RegExp, ProductKind]> = [
  [/\brotisserie|\bspit\b|\bskewers?\b|\bkebab|meat forks/, "rotisserie"],
  [/thermometer|temperature gauge(?! cover)/, "thermometer"],
  [/regulator|\bhoses?\b|conversion kit|\bvalves?\b|\bfitting\b|connector|quick disconnect|\btimer\b/, "regulator"],
  [/\bknobs?\b/, "knob"],
  [/\blights?\b|\bled\b/, "light"],
  [/\bremote|controller|dimmer|plugin|home automation|transformer/, "remote"],
  [/\bmount(?:ing)? (?:pole|bracket|kit)|\bpole\b|recess kit|\bbracket|\bstanchion/, "mount"],
  [/\bcart\b|pedestal base/, "cart"],
  [/smoker box|smoker tray|smoker basket|drip tray|grease tray|tray liner|\bliners?\b(?! for)/, "smoker-box"],
  [/\btongs\b|\bbrush|scraper|spatula|spatutong|\btools?\b|toolkit|\bgloves?\b|\bapron|lifter|gripper|\brake\b|\bpress\b|bundle|starter kit|cleaning bar|\blighter|charcoal starter|breakfast|hamburger|cleaning kit|toolset|\bpeel\b|cutter|injector|cutting board|piece kit|\bmat\b/, "tool"],
  [/\bwok\b|\bgriddle\b|cooking plate|grilling tray|skillet|pizza stone|baking stone|\bstone\b|\bplank|roaster|chicken (?:throne|sitter)|\bfryer\b|\bpot\b|\bpan\b/, "cookware"],
  [/\bburners?\b|igniter/, "burner"],
  [/\bgrids?\b|\bgrates?\b|\bracks?\b|flame tamer|heat shield|briquette|sear plate|deflector|separator|divider|charcoal (?:tray|basket)|\bbasket\b|\bgriddle plate/, "rack"],
  [/\bpellets\b|creekstones|\blbs?\b\.? (?:bag|of)|\bcharcoal\b(?! grill)/, "bag"],
];

function partKind(text: string): ProductKind {
  for (const [pattern, kind] of PART_RULES) if (pattern.test(text)) return kind;
  return "part";
}

/**
 * Category name (one level of the path, lower case) -> kind, or a function of the lower-case
 * title when the name leaves the shape open. Checked from the deepest name up; null: look higher.
 */
type CategoryRule = readonly [RegExp, ProductKind | ((text: string, category: string, configuration: string) => ProductKind)];

const CATEGORY_RULES: readonly CategoryRule[] = [
  [/seasonings|\brubs\b/, "seasoning"],
  [/pizza oven attachments/, "pizza-oven"],
  [/pizza accessories/, "tool"],
  [/built-in pizza ovens|countertop pizza ovens/, (text) => (CART_WORDS.test(text) ? "pizza-oven-cart" : "pizza-oven")],
  [/freestanding pizza ovens/, "pizza-oven-cart"],
  [/pizza ovens/, (text) => (CART_WORDS.test(text) ? "pizza-oven-cart" : "pizza-oven")],
  [/kamado grill tables|grill carts|side shelves/, (text) => (/\bshel(?:f|ves)\b|\btable\b/.test(titleHead(text)) && !/\bcart\b/.test(titleHead(text)) ? "shelf" : "cart")],
  [/kamado cooking grids|heat deflector|firebox dividers|warming racks|grill racks|grill baskets|charcoal trays/, "rack"],
  [/kamado rotisseries|skewers/, "rotisserie"],
  [/kamado grills|built-in kamado/, (text, category, configuration) => cookerKind(`${text} kamado`, category, configuration)],
  [/pellet grills/, "pellet-grill"],
  [/griddles|flat top/, cookerKind],
  [/fryers/, "cookware"],
  [/gas grills|electric (?:outdoor )?grills|charcoal (?:bbq )?grills|built-in grills|portable grills|portable (?:gas|electric|charcoal)/, cookerKind],
  [/equipment packages|kitchen islands|bbq islands|party bars/, "island"],
  [/modular bbq island cabinets/, (text) => (/trash|recycl/.test(text) ? "trash-bin" : /drawer/.test(text) ? "drawer" : "cabinet")],
  [/vent hoods|vent inserts|vent hood accessories/, "vent-hood"],
  [/insulated grill jackets/, "jacket"],
  [/trim kits|vent panels/, "trim-kit"],
  [/wind guards|spark screens/, "wind-guard"],
  [/umbrella holes/, "mount"],
  [/searing stations|side burners|power burners/, "side-burner"],
  [/infrared burners|replacement burners/, "burner"],
  [/access doors/, (text) => (/drawer/.test(text) ? "cabinet" : "door")],
  [/storage drawers|warming drawers/, "drawer"],
  [/door & drawer combos|enclosed cabinets/, "cabinet"],
  [/paper towel/, "paper-towel"],
  [/tank bins|trash/, "trash-bin"],
  [/spice racks/, "shelf"],
  [/ice makers/, "ice-maker"],
  [/kegerators/, "kegerator"],
  [/wine coolers|beverage refrigerators|beverage centers/, "glass-fridge"],
  [/refrigerators/, (text) => (/glass door|beverage cooler/.test(text) ? "glass-fridge" : "refrigerator")],
  [/sinks/, "sink"],
  [/wet bar|blenders/, "bar-center"],
  [/ice bins/, (text) => (/drawer/.test(text) ? "drawer" : "ice-bin")],
  [/ceiling & wall mounted/, "heater-mounted"],
  [/freestanding patio heaters/, "heater-patio"],
  [/patio heater mounts/, "mount"],
  [/heater remotes|control systems/, "remote"],
  [/patio heater accessories/, (text) => partKind(text)],
  [/patio heaters/, (text) => (/\bwall|ceiling|mount/.test(text) ? "heater-mounted" : "heater-patio")],
  [/fire pit tables/, "fire-table"],
  [/fire pit & fire table furniture/, "seating-set"],
  [/fire pit ornaments/, "bag"],
  [/fire pit tools|fire pit installation|fire pit accessories/, (text) => partKind(text)],
  [/fire bowls|gas fire pits|fire pit grills|ready-to-finish|fire pits/, "fire-pit"],
  [/fireplaces/, "fireplace"],
  [/seating sets/, "seating-set"],
  [/chaise|pool furniture|lounges/, (text) => (/\btable\b/.test(text) ? "table" : /\bchair\b/.test(text) ? "chair" : "chaise")],
  [/club chairs|bar stools|outdoor chairs/, "chair"],
  [/end tables|bar tables|buffet|dining/, "table"],
  [/thermometers/, "thermometer"],
  [/tongs|lifters|brushes|scrapers|ash tools|mops|prep gadgets|aprons|gloves|charcoal starters/, "tool"],
  [/planks|woks|roasters|cookware/, "cookware"],
  [/smoker boxes|drip pans/, "smoker-box"],
  [/wood pellets/, "bag"],
  [/timers|hoses & regulators|gas valves/, "regulator"],
  [/grill lights/, "light"],
  [/control knobs/, "knob"],
];

/** Title words for a product whose category names no shape (`Home` alone, "Miscellaneous ..."). */
const TITLE_RULES: ReadonlyArray<readonly [RegExp, ProductKind | ((text: string) => ProductKind)]> = [
  [/\bpizza ovens?\b/, (text) => (CART_WORDS.test(text) ? "pizza-oven-cart" : "pizza-oven")],
  [/\bpatio heater|\bheater\b/, (text) => (/\bwall|ceiling|mount/.test(text) ? "heater-mounted" : "heater-patio")],
  [/fire (?:pit )?table/, "fire-table"],
  [/fire ?pit|fire bowl/, "fire-pit"],
  [/fireplace/, "fireplace"],
  [/kegerator/, "kegerator"],
  [/wine cooler|beverage (?:center|cooler)/, "glass-fridge"],
  [/ice maker/, "ice-maker"],
  [/refrigerator|fridge/, "refrigerator"],
  [/chaise/, "chaise"],
  [/\bchairs?\b|\bstools?\b/, "chair"],
  [/\bsofa|sectional|seating set/, "seating-set"],
  [/\btable\b|credenza/, "table"],
  [/\bsink\b/, "sink"],
  [/trash|recycl/, "trash-bin"],
  [/paper towel/, "paper-towel"],
  [/\bdrawers?\b/, (text) => (/\bdoors?\b/.test(text) ? "cabinet" : "drawer")],
  [/\bdoors?\b(?! (?:upgrade|liner|bin))/, "door"],
  [/\bvent hood|\bhood insert/, "vent-hood"],
  [/side burner|power burner|searing station/, (text) => (/\bfor\b/.test(text) ? "burner" : "side-burner")],
];

function inCategory(names: readonly string[], text: string, configuration: string): ProductKind | null {
  const category = names.join(" > ").toLowerCase();
  for (let i = names.length - 1; i >= 0; i -= 1) {
    const name = (names[i] ?? "").toLowerCase();
    for (const [pattern, kind] of CATEGORY_RULES) {
      if (pattern.test(name)) return typeof kind === "function" ? kind(text, category, configuration) : kind;
    }
  }
  return null;
}

/** Maps a product to the kind its drawing shows. */
export function productKind(product: KindInput): ProductKind {
  if (product.brand === "custom_product" || product.Id === OWN_SEASONING_ID) return "seasoning";
  const names = product.Category.filter((name) => name !== "Home");
  const title = product.Title.toLowerCase();
  const head = titleHead(product.Title).toLowerCase();
  const configuration = (product.Specifications ? (specValue({ Specifications: product.Specifications }, "Configuration", "Grill Configuration") ?? "") : "").toLowerCase();
  const leaf = (names[names.length - 1] ?? "").toLowerCase();

  // A cover is drawn after what it covers, whatever department it is filed under; a cover plate or a
  // grill "skin" is a part, a grill sold "with cover" is a grill.
  const isCover =
    /\bcovers\b/.test(leaf) ||
    (/\bcovers?\b|transit case/.test(head) && !/cover plate|\bskin\b|(?:duct|vent|hole) cover/.test(title));
  if (isCover) return coverKind(title, product.brand);

  const byCategory = inCategory(names, title, configuration);
  if (byCategory) return byCategory;

  for (const [pattern, kind] of TITLE_RULES) {
    if (pattern.test(head)) return typeof kind === "function" ? kind(title) : kind;
  }
  if (/\b(?:grill|smoker|griddle)s?$/.test(head) && !/\bfor\b/.test(title)) return cookerKind(title, "", configuration);
  return partKind(title);
}
