import type { BrandKey } from "../product";
import { isBrandKey } from "../product";
import { isDrop, type Candidate, type Drop } from "./candidate";
import {
  brandFromField,
  brandFromTitle,
  modelFromTitle,
  normalizeCategory,
  normalizeId,
  normalizeImageCount,
  normalizeSpecifications,
  normalizeText,
  parsePrice,
} from "./normalize";

/** Step 1 of the import (see ./pipeline.ts): every record is normalized on its own. */

export type SourceFile = { file: string; records: readonly unknown[] };

/** A brand file is `{brand}.json` for a source brand key. */
export function isBrandFile(file: string): boolean {
  const name = file.replace(/\.json$/i, "");
  return name !== file && isBrandKey(name) && name !== "custom_product";
}

function asRecord(raw: unknown): Record<string, unknown> | null {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

/** One record on its own. Returns a candidate or a drop. */
function normalizeRecord(file: string, index: number, raw: unknown): Candidate | Drop {
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

/** Every record of every file, files in the order given. */
export function normalizeRecords(files: readonly SourceFile[]): {
  candidates: Candidate[];
  drops: Drop[];
  readByFile: Array<[string, number]>;
  read: number;
} {
  const candidates: Candidate[] = [];
  const drops: Drop[] = [];
  const readByFile: Array<[string, number]> = [];
  let read = 0;
  for (const { file, records } of files) {
    readByFile.push([file, records.length]);
    records.forEach((raw, index) => {
      read += 1;
      const result = normalizeRecord(file, index, raw);
      if (isDrop(result)) drops.push(result);
      else candidates.push(result);
    });
  }
  return { candidates, drops, readByFile, read };
}
