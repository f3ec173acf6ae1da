import type { CatalogProduct } from "../product";
import { brandDisplayName, specValue } from "../product";
import type { CategoryFamily } from "../family";

/** The facts of a record that a description may name, read once from its title, category and specifications. */

export type DescriptionInput = Pick<
  CatalogProduct,
  "Id" | "brand" | "Model" | "Title" | "Category" | "Specifications"
>;

export type Facts = {
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

export function collectFacts(product: DescriptionInput, family: CategoryFamily): Facts {
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
  const brand = brandDisplayName(product.brand);
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

