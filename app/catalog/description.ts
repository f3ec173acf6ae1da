import type { CatalogProduct } from "./product";
import { brandDisplayName, specValue } from "./product";
import { categoryFamily, isGasProduct, type CategoryFamily } from "./family";
import { pick } from "./hash";
import { stripBrandPrefix } from "./brands";

/**
 * Product descriptions written in the store's own words from the facts of a
 * record (title, category, specifications). The raw catalog has no
 * descriptions. Text before LEGAL_MARKER is the part that may be sent to the
 * text generator for reformatting; the legal section is always shown as is.
 */

/** Heading line that separates the description body from the legal section. */
export const LEGAL_MARKER = "Legal Disclaimers and Warnings";

export type DescriptionInput = Pick<
  CatalogProduct,
  "Id" | "brand" | "Model" | "Title" | "Category" | "Specifications"
>;

/** Splits a description at the marker line: body (before) and legal (after). */
export function splitDescription(text: string): { body: string; legal: string } {
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((line) => line.trim() === LEGAL_MARKER);
  if (index < 0) return { body: text.trim(), legal: "" };
  return {
    body: lines.slice(0, index).join("\n").trim(),
    legal: lines
      .slice(index + 1)
      .join("\n")
      .trim(),
  };
}

type Facts = {
  brand: string;
  name: string;
  noun: string;
  collection?: string;
  productClass?: string;
  configuration?: string;
  fuel?: string;
  burners?: string;
  btu?: string;
  mainArea?: string;
  totalArea?: string;
  secondaryArea?: string;
  grate?: string;
  gridSize?: string;
  material?: string;
  grade?: string;
  ignition?: string;
  width?: string;
  height?: string;
  depth?: string;
  weight?: string;
  cutout?: string;
  madeInUsa: boolean;
  designedFor?: string;
  volts?: string;
  heatArea?: string;
  seating?: string;
  weightCapacity?: string;
  coverType?: string;
  features: string[];
};

const FAMILY_NOUNS: Record<CategoryFamily, string> = {
  grill: "grill",
  griddle: "griddle",
  kamado: "kamado grill",
  "pizza-oven": "outdoor pizza oven",
  heater: "outdoor heater",
  "fire-pit": "fire feature",
  refrigerator: "outdoor refrigeration unit",
  cabinet: "outdoor kitchen storage component",
  furniture: "piece of outdoor furniture",
  cover: "protective cover",
  accessory: "accessory",
  seasoning: "seasoning",
};

function singular(word: string): string {
  if (/ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:x|ch|sh|ss)es$/i.test(word)) return word.slice(0, -2);
  if (/[^s]s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/** A readable noun from the deepest category name, else the family noun. */
function productNoun(product: DescriptionInput, family: CategoryFamily): string {
  const last = product.Category[product.Category.length - 1] ?? "Home";
  if (
    last === "Home" ||
    /[|:&,]|miscellaneous|components|parts|accessories|tools|sets\b|furniture/i.test(last) ||
    last.split(" ").length > 4
  ) {
    return FAMILY_NOUNS[family];
  }
  const words = last.split(" ");
  const tail = words.pop() ?? "";
  return [...words, singular(tail)]
    .join(" ")
    .toLowerCase()
    .replace(/\bbbq\b/g, "BBQ");
}

/** The title without a trailing model code. */
function productName(product: DescriptionInput): string {
  let name = product.Title.replace(/\s+/g, " ").trim();
  const parts = name.split(/\s[-–]\s/);
  const last = parts[parts.length - 1] ?? "";
  if (parts.length > 1 && (last === product.Model || /^[A-Z0-9][A-Z0-9./_+-]*\d[A-Z0-9./_+-]*$/.test(last))) {
    name = parts.slice(0, -1).join(" - ");
  }
  return name;
}

function yes(value: string | undefined): boolean {
  return value !== undefined && /^(?:yes|true)\b/i.test(value);
}

function collectFacts(product: DescriptionInput, family: CategoryFamily): Facts {
  const get = (...names: string[]) => specValue(product, ...names);
  const cutW = get("Cutout Width", "Cut Out Width");
  const cutH = get("Cutout Height", "Cut Out Height");
  const cutD = get("Cutout Depth", "Cut Out Depth");
  const features: string[] = [];
  if (yes(get("Rotisserie Kit"))) features.push("a rotisserie kit");
  if (yes(get("Infrared Main Burner"))) features.push("infrared main burners");
  if (yes(get("Grill Lights"))) features.push("grill lights");
  if (yes(get("Spring Assisted Hood"))) features.push("a spring-assisted hood");
  if (yes(get("Includes Smoker Box"))) features.push("a smoker box");
  if (yes(get("WiFi/Bluetooth Enabled"))) features.push("WiFi/Bluetooth connectivity");
  if (yes(get("Marine Grade"))) features.push("marine-grade construction");
  if (yes(get("Heat Zone Separators"))) features.push("heat zone separators");
  if (yes(get("Cushion Included"))) features.push("cushions");
  if (yes(get("Outdoor Rated"))) features.push("an outdoor rating");
  if (yes(get("Lock"))) features.push("a door lock");
  const brand = product.brand === "custom_product" ? "LOVE RUB" : brandDisplayName(product.brand);
  return {
    brand,
    name: productName(product),
    noun: productNoun(product, family),
    collection: get("Collection", "Series"),
    productClass: get("Class"),
    configuration: get("Configuration", "Mounting Type"),
    fuel: get("Fuel Type"),
    burners: get("Number Of Main Burners", "Number Of Burners"),
    btu: get("Grilling Surface BTUs", "Total BTUs", "BTU", "Total Side Burner BTUs"),
    mainArea: get("Main Grilling Area"),
    totalArea: get("Total Grilling Area"),
    secondaryArea: get("Secondary Grilling Area"),
    grate: get("Cooking Grate Material"),
    gridSize: get("Cooking Grid Dimensions"),
    material: get("Exterior Material", "Material", "Primary Material", "Main Material", "Frame Material"),
    grade: get("Exterior Stainless Grade"),
    ignition: get("Ignition Type", "Ignition"),
    width: get("Width"),
    height: get("Height"),
    depth: get("Depth"),
    weight: get("Weight"),
    cutout: cutW && cutH && cutD ? `${cutW} W x ${cutH} H x ${cutD} D` : undefined,
    madeInUsa: yes(get("Made In USA", "Made in USA")),
    designedFor: get("Designed For", "Grill Model"),
    volts: get("Volts", "Voltage"),
    heatArea: get("Avg Heat Area"),
    seating: get("Seating Capacity"),
    weightCapacity: get("Weight Capacity"),
    coverType: get("Cover Type"),
    features,
  };
}

/** "115 Volts" / "120V" / "240" -> "115 volt" style wording. */
function volts(value: string): string {
  const number = /^(\d+(?:\.\d+)?)\s*(?:v|volts?)?$/i.exec(value.trim())?.[1];
  return number ? `${number} volt` : value;
}

/** The name without a leading brand ("American Made Grills 24-Inch Wine Cooler" -> "24-Inch Wine Cooler"). */
function shortName(name: string): string {
  const short = stripBrandPrefix(name);
  return short.length > 0 ? short : name;
}

function listJoin(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

function lower(value: string): string {
  return /^[A-Z][a-z]/.test(value) ? value.toLowerCase() : value;
}

function intro(product: DescriptionInput, family: CategoryFamily, f: Facts, seed: string): string {
  const noun = f.noun;
  const inCollection = f.collection ? ` from the ${f.collection} line` : "";
  const classNote = f.productClass ? ` It sits in the ${lower(f.productClass)} class of the range.` : "";
  const config = f.configuration ? ` Configuration: ${lower(f.configuration)}.` : "";
  if (family === "seasoning") {
    return pick(
      [
        `${f.name} is our own house blend, made for people who like their barbecue with a bit of character. It is the seasoning we reach for first, from weeknight chicken to a long Saturday brisket.`,
        `${f.name} is the store's own rub: a balanced, all-purpose blend that builds a good crust on the grill and still tastes right in a skillet.`,
      ],
      seed,
      "intro"
    );
  }
  const variants = [
    `The ${f.name} is ${article(noun)} ${noun} by ${f.brand}${inCollection}.${classNote}${config}`,
    `${f.brand} builds the ${shortName(f.name)} as ${article(
      noun
    )} ${noun}${inCollection}, made for regular use outdoors.${classNote}${config}`,
    `Meet the ${f.name}: ${article(noun)} ${noun} by ${f.brand}${inCollection}.${classNote}${config}`,
  ];
  return pick(variants, seed, "intro");
}

function burnerPhrase(value: string): string {
  const count = /^(\d+)\b/.exec(value)?.[1];
  if (count) return count === "1" ? "uses a single main burner" : `uses ${count} main burners`;
  if (/\bsingle\b/i.test(value)) return "uses a single burner";
  if (/\b(?:double|dual)\b/i.test(value)) return "uses two burners";
  return `uses ${lower(value)} burners`.replace(/burners burners?$/i, "burners");
}

function cookingParagraph(f: Facts, seed: string, what: string): string {
  const parts: string[] = [];
  if (f.fuel) parts.push(`runs on ${lower(f.fuel)}`);
  if (f.burners) parts.push(burnerPhrase(f.burners));
  if (f.btu) parts.push(`is rated at ${f.btu} BTUs`);
  const sentences: string[] = [];
  if (parts.length > 0) sentences.push(`This ${what} ${listJoin(parts)}.`);
  const areas: string[] = [];
  if (f.mainArea) areas.push(`${f.mainArea} of primary cooking space`);
  if (f.secondaryArea) areas.push(`${f.secondaryArea} of secondary space`);
  if (!f.mainArea && f.totalArea) areas.push(`${f.totalArea} of total cooking area`);
  if (areas.length > 0) {
    sentences.push(
      pick(
        [
          `You get ${listJoin(areas)}.`,
          `It offers ${listJoin(areas)}.`,
          `The cooking surface provides ${listJoin(areas)}.`,
        ],
        seed,
        "area"
      )
    );
  }
  if (f.grate) {
    const grid = f.gridSize ? ` measuring ${f.gridSize}` : "";
    sentences.push(`The cooking grates are ${lower(f.grate)}${grid}.`);
  }
  if (f.ignition) sentences.push(`Ignition is ${lower(f.ignition)}.`);
  if (f.features.length > 0) sentences.push(`Notable features include ${listJoin(f.features.slice(0, 5))}.`);
  return sentences.join(" ");
}

function familyParagraph(family: CategoryFamily, f: Facts, seed: string, product: DescriptionInput): string {
  switch (family) {
    case "grill":
    case "griddle":
    case "kamado":
    case "pizza-oven": {
      const what =
        family === "griddle" ? "griddle" : family === "kamado" ? "kamado" : family === "pizza-oven" ? "oven" : f.noun;
      const text = cookingParagraph(f, seed, what);
      if (text) return text;
      return pick(
        [
          `It is made for steady, even cooking, with controls that are easy to read and reach.`,
          `It is built for cooks who want dependable heat and simple control, meal after meal.`,
        ],
        seed,
        "cook-fallback"
      );
    }
    case "heater": {
      const parts: string[] = [];
      if (f.fuel) parts.push(`It runs on ${lower(f.fuel)}`);
      if (f.btu) parts.push(`${parts.length ? "and delivers" : "It delivers"} ${f.btu} BTUs`);
      let text = parts.length ? `${parts.join(" ")}.` : "";
      if (f.heatArea) text += ` It warms an area of about ${f.heatArea}.`;
      if (f.volts) text += ` It is designed for a ${volts(f.volts)} supply.`;
      if (f.configuration) text += ` Mounting: ${lower(f.configuration)}.`;
      return (
        text.trim() ||
        pick(
          [
            "It is made to keep a patio, porch or outdoor dining area comfortable when the evening turns cool.",
            "It extends the outdoor season by putting steady, directed warmth where people sit.",
          ],
          seed,
          "heat-fallback"
        )
      );
    }
    case "fire-pit": {
      const parts: string[] = [];
      if (f.fuel) parts.push(`burns ${lower(f.fuel)}`);
      if (f.btu) parts.push(`puts out up to ${f.btu} BTUs`);
      if (f.ignition) parts.push(`uses ${lower(f.ignition)} ignition`);
      const base = parts.length ? `This fire feature ${listJoin(parts)}.` : "";
      return `${base} ${pick(
        [
          "It gives a patio a natural gathering point, with a real flame to sit around after dark.",
          "It brings warmth and a focal point to a patio, deck or garden seating area.",
        ],
        seed,
        "fire"
      )}`.trim();
    }
    case "refrigerator": {
      const parts: string[] = [];
      if (f.features.includes("an outdoor rating")) parts.push("It is rated for outdoor installation.");
      if (f.volts) parts.push(`It runs on a ${volts(f.volts)} supply.`);
      return `${pick(
        [
          "It keeps drinks and ingredients cold right where you cook, saving trips back to the kitchen.",
          "It puts cold drinks and prepared food within reach of the grill.",
        ],
        seed,
        "cold"
      )} ${parts.join(" ")}`.trim();
    }
    case "cabinet": {
      return `${pick(
        [
          "It adds organized, weather-resistant storage to an outdoor kitchen, keeping tools, propane and supplies out of sight.",
          "It gives an outdoor kitchen a clean, finished front and practical storage for tools and supplies.",
        ],
        seed,
        "storage"
      )}`;
    }
    case "furniture": {
      const parts: string[] = [];
      if (f.seating)
        parts.push(
          `seats ${lower(f.seating).replace(/^(\d+)\s*persons?$/i, (_m, n: string) =>
            n === "1" ? "1 person" : `${n} people`
          )}`
        );
      if (f.weightCapacity) parts.push(`supports up to ${f.weightCapacity}`);
      const base = parts.length ? ` It ${listJoin(parts)}.` : "";
      return `${pick(
        [
          "It is made to stay outside, so your patio or pool deck is ready whenever you are.",
          "It is designed for outdoor living, with materials chosen to handle sun and weather.",
        ],
        seed,
        "furniture"
      )}${base}`;
    }
    case "cover": {
      const fit = f.designedFor ? ` It is made to fit ${f.designedFor}.` : "";
      const type = f.coverType ? ` Cover type: ${lower(f.coverType)}.` : "";
      return `${pick(
        [
          "A fitted cover keeps rain, dust, pollen and leaves off your equipment between uses and helps the finish last.",
          "It shields your equipment from weather and debris between cookouts, so it is clean and ready next time.",
        ],
        seed,
        "cover"
      )}${fit}${type}`;
    }
    case "seasoning": {
      const ingredients = specValue(product, "Ingredients");
      const weight = specValue(product, "Net Weight");
      const parts: string[] = [];
      if (ingredients) parts.push(`The blend is made from ${lower(ingredients)}.`);
      if (weight) parts.push(`Each jar holds ${weight}.`);
      parts.push("Shake it on generously before cooking, or mix it with oil for a quick marinade.");
      return parts.join(" ");
    }
    case "accessory":
    default: {
      const fit = f.designedFor ? ` It is intended for ${f.designedFor}.` : "";
      return `${pick(
        [
          "It is the kind of part or accessory that makes everyday grilling easier and keeps your setup working as it should.",
          "It completes or maintains your outdoor cooking setup, and is made to the same standard as the equipment it serves.",
        ],
        seed,
        "accessory"
      )}${fit}`;
    }
  }
}

function buildParagraph(f: Facts, seed: string): string {
  const sentences: string[] = [];
  if (f.material) {
    const grade = f.grade ? ` (grade: ${f.grade})` : "";
    sentences.push(
      pick(
        [`Construction is ${lower(f.material)}${grade}.`, `It is built from ${lower(f.material)}${grade}.`],
        seed,
        "material"
      )
    );
  }
  const dims: string[] = [];
  if (f.width) dims.push(`${f.width} wide`);
  if (f.height) dims.push(`${f.height} high`);
  if (f.depth) dims.push(`${f.depth} deep`);
  if (dims.length > 0)
    sentences.push(`Overall it measures ${listJoin(dims)}${f.weight ? ` and weighs ${f.weight}` : ""}.`);
  else if (f.weight) sentences.push(`It weighs ${f.weight}.`);
  if (f.cutout && !sentences.some((s) => s.includes("cut-out"))) sentences.push(`The required cut-out is ${f.cutout}.`);
  if (f.madeInUsa) sentences.push("It is made in the USA.");
  return sentences.join(" ");
}

function closing(family: CategoryFamily, f: Facts, seed: string): string {
  const byFamily: Record<CategoryFamily, string[]> = {
    grill: [
      `Pair it with matching ${f.brand} storage, side burners and a vent hood to build a complete outdoor kitchen.`,
      `It is a solid centrepiece for anything from a quick weeknight dinner to a full backyard cookout.`,
      `Check the fuel type and any cut-out dimensions before ordering, and our team can help you plan the rest of the space.`,
    ],
    griddle: [
      "Flat-top cooking opens up breakfasts, smash burgers, stir-fries and anything that would fall through a grate.",
      "It is ideal for feeding a crowd at once, from pancakes in the morning to fajitas at night.",
    ],
    kamado: [
      "Thick ceramic walls hold heat for low-and-slow smoking and still reach searing temperatures when you need them.",
      "From overnight pork shoulder to a quick steak sear, a kamado covers a wide range of cooking with very little fuel.",
    ],
    "pizza-oven": [
      "High, even heat gives crisp crusts in minutes, and the oven is just as good for roasting vegetables, bread and meat.",
      "Bring pizza night outdoors: preheat, launch, turn once, and serve.",
    ],
    heater: [
      "Follow the manufacturer's clearance guidance when choosing a mounting position.",
      "It is a practical way to keep an outdoor room usable in spring, autumn and on cool summer nights.",
    ],
    "fire-pit": [
      "Add seating around it and it quickly becomes the favorite spot in the garden.",
      "Pair it with a matching cover to keep it clean between uses.",
    ],
    refrigerator: [
      "Check the cut-out and ventilation requirements before planning your island.",
      "It pairs well with an outdoor sink, ice bin and storage drawers for a complete bar area.",
    ],
    cabinet: [
      `Combine it with other ${f.brand} doors and drawers for a consistent look across your island.`,
      "Measure your island openings carefully; cut-out dimensions matter more than overall size.",
    ],
    furniture: [
      "Pair it with matching pieces from the same collection for a coordinated patio.",
      "Easy-care materials mean more time outside and less time on upkeep.",
    ],
    cover: [
      "Let the equipment cool completely before covering it, and remove the cover after rain so moisture can dry.",
      "A good cover is the simplest way to protect a significant investment.",
    ],
    accessory: [
      "Check the compatibility notes in the specifications to confirm it fits your model.",
      "Small additions like this keep your outdoor kitchen running smoothly season after season.",
    ],
    seasoning: [
      "Order it on its own or add a jar to your grill order; it also makes an easy gift for the barbecue fan in your life.",
      "Keep a jar by the grill: once you have tried it, it tends to become the default.",
    ],
  };
  return pick(byFamily[family], seed, "closing");
}

function legalSection(product: DescriptionInput, family: CategoryFamily, f: Facts): string[] {
  const gas = family !== "seasoning" && isGasProduct(product);
  const electric =
    family !== "seasoning" &&
    (f.volts !== undefined || /\belectric\b/i.test(product.Title) || /electric/i.test(f.fuel ?? ""));
  const burnsFuel = ["grill", "griddle", "kamado", "pizza-oven", "heater", "fire-pit"].includes(family);
  const lines: string[] = [];
  if (family === "seasoning") {
    lines.push(
      "California Proposition 65: for information about chemicals in foods, see www.P65Warnings.ca.gov/food.",
      "Food product: read the ingredient and allergen statement before use. Store sealed in a cool, dry place."
    );
  } else {
    const chemicals = burnsFuel ? "lead and, when fuel is burned, carbon monoxide and soot" : "lead";
    lines.push(
      `California Proposition 65 WARNING: This product can expose you to chemicals including ${chemicals}, which are known to the State of California to cause cancer and birth defects or other reproductive harm. For more information go to www.P65Warnings.ca.gov.`
    );
  }
  if (gas) {
    lines.push(
      "Gas appliance: installation must be carried out by a qualified, licensed installer in accordance with the manufacturer's instructions and all local codes. Confirm the fuel type (natural gas or propane) before ordering; conversion may require a kit. For outdoor use only."
    );
  }
  if (electric) {
    lines.push(
      "Electrical connection: use a properly grounded, GFCI-protected outdoor circuit installed by a licensed electrician where required by local code."
    );
  }
  if (burnsFuel) {
    lines.push(
      "Keep the clearances to combustible materials stated by the manufacturer, and never leave a lit appliance unattended."
    );
  }
  lines.push(
    "Product images are illustrations for reference only and may not show the exact product, color, finish or included accessories.",
    "Specifications, dimensions and features may change without notice; confirm critical details (including cut-out sizes) with the manufacturer's documentation before purchase or installation."
  );
  if (family !== "seasoning") {
    lines.push(
      "Warranty coverage is provided by the manufacturer under its own terms; see our defective product policy for how claims are handled."
    );
  }
  return lines;
}

/**
 * Composes a description: 3-4 short paragraphs naming the key facts that exist,
 * a blank line, LEGAL_MARKER on its own line, then the legal lines.
 * Deterministic: phrasing variants are chosen with a hash of brand and Id.
 */
export function composeDescription(product: DescriptionInput): string {
  const family = categoryFamily(product);
  const facts = collectFacts(product, family);
  const seed = `${product.brand}-${product.Id}`;
  const paragraphs = [
    intro(product, family, facts, seed),
    familyParagraph(family, facts, seed, product),
    buildParagraph(facts, seed),
    closing(family, facts, seed),
  ]
    .map((paragraph) =>
      paragraph
        .replace(/\s+/g, " ")
        .replace(/\.\.(?=\s|$)/g, ".")
        .trim()
    )
    .filter((paragraph) => paragraph.length > 0);
  return `${paragraphs.join("\n\n")}\n\n${LEGAL_MARKER}\n${legalSection(product, family, facts).join("\n")}`;
}
