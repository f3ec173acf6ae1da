import type { BrandKey, CatalogProduct } from "../product";
import { BRAND_KEYS, productKey } from "../product";
import { CUSTOM_PRODUCTS } from "../custom-product";
import type { Drop } from "./candidate";
import { compareIds, compareStrings } from "./normalize";
import type { ValidProduct } from "./step3-validate";

/** The import report (catalog/import-report.json) and its console summary. */

type DroppedEntry = {
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

function sortedObject<T>(entries: Array<[string, T]>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of [...entries].sort((a, b) => compareStrings(a[0], b[0]))) out[key] = value;
  return out;
}

export function buildReport(run: {
  source: string;
  readByFile: Array<[string, number]>;
  read: number;
  kept: readonly ValidProduct[];
  drops: readonly Drop[];
  catalog: Record<BrandKey, CatalogProduct[]>;
}): ImportReport {
  const { kept, drops, catalog } = run;
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
  return {
    source: run.source,
    files: sortedObject(run.readByFile),
    read: run.read,
    kept: kept.length,
    dropped: drops.length,
    repaired: kept.filter(({ candidate }) => candidate.repairs.length > 0).length,
    customProducts: CUSTOM_PRODUCTS.length,
    written: kept.length + CUSTOM_PRODUCTS.length,
    keptByBrand: Object.fromEntries(BRAND_KEYS.map((brand) => [brand, catalog[brand].length])),
    repairs: sortedObject([...repairEntries.entries()].map(([reason, keys]) => [reason, { count: keys.length, products: [...keys].sort(compareStrings) }])),
    drops: sortedObject(
      [...dropEntries.entries()].map(([kind, list]) => [
        kind,
        {
          count: list.length,
          records: [...list].sort((a, b) => compareIds(a.id ?? "", b.id ?? "") || compareStrings(a.file, b.file) || a.record - b.record),
        },
      ]),
    ),
  };
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
