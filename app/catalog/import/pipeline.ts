import type { BrandKey, CatalogProduct, Specification } from "../product";
import { BRAND_KEYS, catalogProductSchema, isBrandKey, productKey } from "../product";
import { composeDescription } from "../description";
import { imagePaths } from "../illustration";
import { CUSTOM_PRODUCTS } from "../custom-product";
import { categoryFromTitle, pathKey } from "./category";
import {
  brandFromField,
  brandFromTitle,
  compareIds,
  compareStrings,
  modelFromTitle,
  normalizeCategory,
  normalizeId,
  normalizeImageCount,
  normalizeSpecifications,
  normalizeText,
  parsePrice,
} from "./normalize";

/**
 * The whole import as a pure function: raw source files in, normalized
 * per-brand catalog files and a report out. No I/O, no clock, no
 * randomness; every collection is ordered explicitly, so the same input always
 * gives byte-identical output.
 *
 * Order of work:
 *  1. every record is normalized on its own (Id, title, brand, model, price,
 *     specifications, category, image_count);
 *  2. gaps are filled from other records: a missing/only-"Home" Category from
 *     the same Id, then the same Model, in a brand file, then title keywords,
 *     then a fallback path (see ./category.ts); a null price from the same Id,
 *     then the same Model, in any file (brand files first);
 *  3. records still without a price are dropped ("no price"), and every record
 *     is validated with catalogProductSchema ("invalid record" if not);
 *  4. Ids are made unique across the whole catalog. DUPLICATE RULE: among the
 *     valid records sharing an Id the importer keeps, in this order of
 *     preference: (a) a record from a brand file over one from products.json;
 *     (b) a record whose price was in the source over one whose price was
 *     recovered; (c) the record with more specifications after cleaning;
 *     (d) the first record in file order (files by name, then position).
 *     The others are dropped with "duplicate id (kept {brand}-{Id} from file
 *     {file}, record {n})". The store's own product Id is reserved.
 *  5. records are grouped by brand and sorted by Id (numeric Ids by value).
 */

export const GENERAL_SOURCE_FILE = "products.json";

export type SourceFile = { file: string; records: readonly unknown[] };

export type DroppedEntry = {
  id: string | null;
  file: string;
  /** 1-based position in the source file. */
  record: number;
  reason: string;
};

export type ImportReport = {
  source: string;
  files: Record<string, number>;
  read: number;
  kept: number;
  dropped: number;
  /** Kept records with at least one repair. */
  repaired: number;
  customProducts: number;
  written: number;
  keptByBrand: Record<string, number>;
  /** Repairs applied to kept records: reason -> count and product keys. */
  repairs: Record<string, { count: number; products: string[] }>;
  /** Dropped records by kind of reason ("duplicate id", "no price", ...). */
  drops: Record<string, { count: number; records: DroppedEntry[] }>;
};

export type ImportResult = {
  catalog: Record<BrandKey, CatalogProduct[]>;
  report: ImportReport;
  /** File name (relative to catalog/) -> exact file content. */
  files: Record<string, string>;
};

type Candidate = {
  file: string;
  index: number;
  fromBrandFile: boolean;
  id: string;
  title: string;
  brand: BrandKey;
  model: string;
  price: number | null;
  priceFromSource: boolean;
  specifications: Specification[];
  category: string[] | null;
  imageCount: number;
  repairs: string[];
};

type Drop = { candidateFile: string; index: number; id: string | null; kind: string; reason: string };

/** A brand file is `{brand}.json` for a source brand key. */
export function isBrandFile(file: string): boolean {
  const name = file.replace(/\.json$/i, "");
  return name !== file && isBrandKey(name) && name !== "custom_product";
}

function asRecord(raw: unknown): Record<string, unknown> | null {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

/** Step 1: one record on its own. Returns a candidate or a drop. */
export function normalizeRecord(file: string, index: number, raw: unknown): Candidate | Drop {
  const fromBrandFile = isBrandFile(file);
  const drop = (kind: string, id: string | null = null): Drop => ({
    candidateFile: file,
    index,
    id,
    kind,
    reason: kind,
  });
  const record = asRecord(raw);
  if (!record) return drop("not an object");
  const id = normalizeId(record.Id);
  if (id === null) return drop("no id");
  const repairs: string[] = [];

  const title = normalizeText(record.Title);
  if (title === "") return drop("no title", id);
  if (typeof record.Title === "string" && record.Title !== title) repairs.push("title whitespace normalized");

  let brand = brandFromField(record.brand);
  if (brand === null) {
    brand = brandFromTitle(title);
    if (brand !== null) repairs.push("brand derived from title");
    else if (fromBrandFile) {
      brand = file.replace(/\.json$/i, "") as BrandKey;
      repairs.push("brand taken from file name");
    } else return drop("no brand", id);
  }

  let model = normalizeText(record.Model);
  if (model === "" && typeof record.Model === "number") model = String(record.Model);
  if (model === "") {
    const fromTitle = modelFromTitle(title);
    if (fromTitle !== null) {
      model = fromTitle;
      repairs.push("model derived from title");
    } else {
      repairs.push("model missing (left empty)");
    }
  } else if (typeof record.Model === "string" && record.Model !== model) {
    repairs.push("model whitespace normalized");
  }

  const price = parsePrice(record.Price);
  if (price !== null && typeof record.Price === "string") repairs.push("price parsed from text");

  const specs = normalizeSpecifications(record.Specifications);
  if (specs.splitFromString) repairs.push("specifications split from text");
  if (specs.noiseDropped > 0) repairs.push('scraping-noise specification ("" key) dropped');
  if (specs.malformedDropped > 0) repairs.push("malformed specification dropped");
  if (specs.duplicatesDropped > 0) repairs.push("repeated specification dropped");
  if (specs.missing) repairs.push("specifications missing (empty list)");

  const category = normalizeCategory(record.Category);
  if (category?.homeAdded) repairs.push('category root "Home" added');

  let imageCount = normalizeImageCount(record.image_count);
  if (imageCount === null) {
    imageCount = 1;
    repairs.push("image_count defaulted to 1");
  }

  return {
    file,
    index,
    fromBrandFile,
    id,
    title,
    brand,
    model,
    price,
    priceFromSource: price !== null,
    specifications: specs.specifications,
    category: category && category.path.length > 1 ? category.path : null,
    imageCount,
    repairs,
  };
}

function isDrop(value: Candidate | Drop): value is Drop {
  return "kind" in value;
}

/** Brand-file candidates first, then file order: the lookup order for repairs. */
function lookupOrder(a: Candidate, b: Candidate): number {
  if (a.fromBrandFile !== b.fromBrandFile) return a.fromBrandFile ? -1 : 1;
  return compareStrings(a.file, b.file) || a.index - b.index;
}

/** Duplicate preference; see the module comment (rule 4). Negative = a is kept first. */
export function duplicatePreference(
  a: Pick<Candidate, "fromBrandFile" | "priceFromSource" | "specifications" | "file" | "index">,
  b: Pick<Candidate, "fromBrandFile" | "priceFromSource" | "specifications" | "file" | "index">
): number {
  if (a.fromBrandFile !== b.fromBrandFile) return a.fromBrandFile ? -1 : 1;
  if (a.priceFromSource !== b.priceFromSource) return a.priceFromSource ? -1 : 1;
  if (a.specifications.length !== b.specifications.length) return b.specifications.length - a.specifications.length;
  return compareStrings(a.file, b.file) || a.index - b.index;
}

function toProduct(candidate: Candidate & { price: number; category: string[] }): CatalogProduct {
  const images = imagePaths(candidate.brand, candidate.id, candidate.imageCount);
  const withoutDescription = {
    Id: candidate.id,
    Model: candidate.model,
    brand: candidate.brand,
    Title: candidate.title,
    Price: candidate.price,
    Image: images[0] ?? "",
    Other_image: images,
    Category: candidate.category,
    Specifications: candidate.specifications,
    image_count: candidate.imageCount,
  };
  return {
    Id: withoutDescription.Id,
    Model: withoutDescription.Model,
    brand: withoutDescription.brand,
    Title: withoutDescription.Title,
    Price: withoutDescription.Price,
    Image: withoutDescription.Image,
    Other_image: withoutDescription.Other_image,
    Category: withoutDescription.Category,
    Specifications: withoutDescription.Specifications,
    Description: composeDescription(withoutDescription),
    image_count: withoutDescription.image_count,
  };
}

function sortedObject<T>(entries: Array<[string, T]>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of [...entries].sort((a, b) => compareStrings(a[0], b[0]))) out[key] = value;
  return out;
}

export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Runs the whole import. `source` is a label for the report (no absolute paths). */
export function runImport(sources: readonly SourceFile[], source = "reference-catalog"): ImportResult {
  const files = [...sources].sort((a, b) => compareStrings(a.file, b.file));
  const drops: Drop[] = [];
  const candidates: Candidate[] = [];
  const readByFile: Array<[string, number]> = [];
  let read = 0;

  // 1. record by record
  for (const { file, records } of files) {
    readByFile.push([file, records.length]);
    records.forEach((raw, index) => {
      read += 1;
      const result = normalizeRecord(file, index, raw);
      if (isDrop(result)) drops.push(result);
      else candidates.push(result);
    });
  }

  // 2. lookups for repairs (arrays in lookup order, never Map iteration)
  const ordered = [...candidates].sort(lookupOrder);
  const categoryDonors = ordered.filter((c) => c.fromBrandFile && c.category !== null);
  const priceDonors = ordered.filter((c) => c.price !== null);
  const knownPaths = new Set(categoryDonors.map((c) => pathKey(c.category ?? [])));

  for (const candidate of candidates) {
    if (candidate.category === null) {
      const sameId = categoryDonors.find((d) => d !== candidate && d.id === candidate.id);
      const sameModel =
        candidate.model === "" ? undefined : categoryDonors.find((d) => d !== candidate && d.model === candidate.model);
      if (sameId?.category) {
        candidate.category = [...sameId.category];
        candidate.repairs.push("category derived from same Id in a brand file");
      } else if (sameModel?.category) {
        candidate.category = [...sameModel.category];
        candidate.repairs.push("category derived from same Model in a brand file");
      } else {
        const derived = categoryFromTitle(candidate.title, knownPaths);
        candidate.category = derived.path;
        candidate.repairs.push(
          derived.rule === "title keywords"
            ? "category derived from title keywords"
            : "category fallback (no title keyword matched)"
        );
      }
    }
    if (candidate.price === null) {
      const sameId = priceDonors.find((d) => d !== candidate && d.id === candidate.id);
      const sameModel =
        candidate.model === "" ? undefined : priceDonors.find((d) => d !== candidate && d.model === candidate.model);
      if (sameId?.price) {
        candidate.price = sameId.price;
        candidate.repairs.push("price taken from same Id");
      } else if (sameModel?.price) {
        candidate.price = sameModel.price;
        candidate.repairs.push("price taken from same Model");
      }
    }
  }

  // 3. price and schema
  const valid: Array<{ candidate: Candidate; product: CatalogProduct }> = [];
  for (const candidate of candidates) {
    const { price, category } = candidate;
    if (price === null) {
      drops.push({
        candidateFile: candidate.file,
        index: candidate.index,
        id: candidate.id,
        kind: "no price",
        reason: "no price",
      });
      continue;
    }
    const product = toProduct({ ...candidate, price, category: category ?? ["Home"] });
    const parsed = catalogProductSchema.safeParse(product);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? issue.path.join(".") : "";
      drops.push({
        candidateFile: candidate.file,
        index: candidate.index,
        id: candidate.id,
        kind: "invalid record",
        reason: `invalid record (${where}: ${issue?.message ?? "schema"})`,
      });
      continue;
    }
    valid.push({ candidate, product });
  }

  // 4. unique Ids across the catalog
  const reserved = new Set(CUSTOM_PRODUCTS.map((p) => p.Id));
  const byPreference = [...valid].sort(
    (a, b) => compareIds(a.candidate.id, b.candidate.id) || duplicatePreference(a.candidate, b.candidate)
  );
  const kept: Array<{ candidate: Candidate; product: CatalogProduct }> = [];
  let current: { candidate: Candidate; product: CatalogProduct } | null = null;
  for (const entry of byPreference) {
    const { candidate } = entry;
    if (reserved.has(candidate.id)) {
      drops.push({
        candidateFile: candidate.file,
        index: candidate.index,
        id: candidate.id,
        kind: "duplicate id",
        reason: "duplicate id (reserved for the store's own product)",
      });
      continue;
    }
    if (current && current.candidate.id === candidate.id) {
      drops.push({
        candidateFile: candidate.file,
        index: candidate.index,
        id: candidate.id,
        kind: "duplicate id",
        reason: `duplicate id (kept ${productKey(current.product)} from file ${current.candidate.file}, record ${
          current.candidate.index + 1
        })`,
      });
      continue;
    }
    current = entry;
    kept.push(entry);
  }

  // 5. per brand, sorted by Id
  const catalog = Object.fromEntries(BRAND_KEYS.map((brand) => [brand, [] as CatalogProduct[]])) as Record<
    BrandKey,
    CatalogProduct[]
  >;
  for (const { product } of kept) catalog[product.brand].push(product);
  for (const product of CUSTOM_PRODUCTS) catalog[product.brand].push(product);
  for (const brand of BRAND_KEYS) catalog[brand].sort((a, b) => compareIds(a.Id, b.Id));

  if (read !== kept.length + drops.length) {
    throw new Error(`import invariant broken: read ${read} != kept ${kept.length} + dropped ${drops.length}`);
  }

  // report
  const repairEntries = new Map<string, string[]>();
  for (const { candidate, product } of kept) {
    for (const reason of candidate.repairs) {
      const list = repairEntries.get(reason) ?? [];
      list.push(productKey(product));
      repairEntries.set(reason, list);
    }
  }
  const dropEntries = new Map<string, DroppedEntry[]>();
  for (const drop of drops) {
    const list = dropEntries.get(drop.kind) ?? [];
    list.push({ id: drop.id, file: drop.candidateFile, record: drop.index + 1, reason: drop.reason });
    dropEntries.set(drop.kind, list);
  }
  const report: ImportReport = {
    source,
    files: sortedObject(readByFile),
    read,
    kept: kept.length,
    dropped: drops.length,
    repaired: kept.filter(({ candidate }) => candidate.repairs.length > 0).length,
    customProducts: CUSTOM_PRODUCTS.length,
    written: kept.length + CUSTOM_PRODUCTS.length,
    keptByBrand: Object.fromEntries(BRAND_KEYS.map((brand) => [brand, catalog[brand].length])),
    repairs: sortedObject(
      [...repairEntries.entries()].map(([reason, keys]) => [
        reason,
        { count: keys.length, products: [...keys].sort(compareStrings) },
      ])
    ),
    drops: sortedObject(
      [...dropEntries.entries()].map(([kind, list]) => [
        kind,
        {
          count: list.length,
          records: [...list].sort(
            (a, b) => compareIds(a.id ?? "", b.id ?? "") || compareStrings(a.file, b.file) || a.record - b.record
          ),
        },
      ])
    ),
  };

  const out: Record<string, string> = {};
  for (const brand of BRAND_KEYS) out[`${brand}.json`] = stableJson(catalog[brand]);
  out["import-report.json"] = stableJson(report);
  return { catalog, report, files: out };
}

/** Human-readable summary of a report, for the console. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  lines.push(`Catalog import from ${report.source}`);
  lines.push(`  records read:    ${report.read} (${Object.keys(report.files).length} files)`);
  lines.push(`  kept:            ${report.kept}`);
  lines.push(`  dropped:         ${report.dropped}`);
  lines.push(`  repaired:        ${report.repaired} kept records with at least one repair`);
  lines.push(`  own products:    ${report.customProducts} (written: ${report.written})`);
  lines.push(`  check:           read ${report.read} = kept ${report.kept} + dropped ${report.dropped}`);
  lines.push("Repairs (kept records, by reason):");
  for (const [reason, { count }] of Object.entries(report.repairs))
    lines.push(`  ${String(count).padStart(5)}  ${reason}`);
  lines.push("Dropped (by reason):");
  for (const [kind, { count, records }] of Object.entries(report.drops)) {
    lines.push(`  ${String(count).padStart(5)}  ${kind}`);
    for (const entry of records) {
      const detail = entry.reason === kind ? "" : ` ${entry.reason.slice(kind.length).trim()}`;
      lines.push(`         ${entry.id ?? "(no id)"} [${entry.file} #${entry.record}]${detail}`);
    }
  }
  lines.push("Written per brand file (own products included):");
  for (const [brand, count] of Object.entries(report.keptByBrand))
    lines.push(`  ${String(count).padStart(5)}  ${brand}.json`);
  return lines.join("\n");
}
