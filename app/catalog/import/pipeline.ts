import type { BrandKey, CatalogProduct } from "../product";
import { BRAND_KEYS } from "../product";
import { compareStrings } from "./normalize";
import { buildReport, type ImportReport } from "./report";
import { buildSpecFieldReport, type SpecFieldReport } from "./spec-report";
import { normalizeRecords, type SourceFile } from "./step1-normalize-records";
import { fillGaps } from "./step2-fill-gaps";
import { validate } from "./step3-validate";
import { keepUniqueIds } from "./step4-unique-ids";
import { groupByBrand } from "./step5-group-by-brand";

/**
 * The whole import as a pure function: raw source files in, normalized
 * per-brand catalog files and a report out. No I/O, no clock, no
 * randomness; every collection is ordered explicitly, so the same input always
 * gives byte-identical output.
 *
 * Order of work, one module per step:
 *  1. every record is normalized on its own (Id, title, brand, model, price,
 *     specifications, category, image_count): ./step1-normalize-records.ts;
 *  2. gaps are filled from other records (category, price): ./step2-fill-gaps.ts;
 *  3. records still without a price are dropped, and every record is validated
 *     with catalogProductSchema: ./step3-validate.ts;
 *  4. Ids are made unique across the whole catalog (the DUPLICATE RULE):
 *     ./step4-unique-ids.ts;
 *  5. records are grouped by brand and sorted by Id: ./step5-group-by-brand.ts.
 * Then the report (./report.ts) counts what was read, kept, repaired and dropped.
 */

export type { SourceFile } from "./step1-normalize-records";

type ImportResult = {
  catalog: Record<BrandKey, CatalogProduct[]>;
  report: ImportReport;
  /** Per normalized specification field: parsed, present and unreadable texts (printed, not written). */
  specFields: SpecFieldReport;
  /** File name (relative to catalog/) -> exact file content. */
  files: Record<string, string>;
};

function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Runs the whole import. `source` is a label for the report (no absolute paths). */
export function runImport(sources: readonly SourceFile[], source = "reference-catalog"): ImportResult {
  const files = [...sources].sort((a, b) => compareStrings(a.file, b.file));
  const normalized = normalizeRecords(files);
  fillGaps(normalized.candidates);
  const validated = validate(normalized.candidates);
  const unique = keepUniqueIds(validated.valid);
  const catalog = groupByBrand(unique.kept);
  const drops = [...normalized.drops, ...validated.drops, ...unique.drops];

  const { read, readByFile } = normalized;
  const kept = unique.kept;
  if (read !== kept.length + drops.length) {
    throw new Error(`import invariant broken: read ${read} != kept ${kept.length} + dropped ${drops.length}`);
  }

  const report = buildReport({ source, readByFile, read, kept, drops, catalog });
  const out: Record<string, string> = {};
  for (const brand of BRAND_KEYS) out[`${brand}.json`] = stableJson(catalog[brand]);
  out["import-report.json"] = stableJson(report);
  const specFields = buildSpecFieldReport(BRAND_KEYS.flatMap((brand) => catalog[brand]));
  return { catalog, report, specFields, files: out };
}
