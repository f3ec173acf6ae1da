import type { CatalogProduct } from "../product";
import { readSpecFields, SPEC_FIELD_KEYS, SPEC_FIELDS, type SpecField } from "../spec-values";
import { compareStrings } from "./normalize";

/**
 * Per normalized field (see app/catalog/spec-values.ts): how many products
 * carry it, how many of those parsed, and every text that could not be read
 * (with how many products hold it), so a new spelling in the source shows up
 * at import instead of silently dropping products from the buying guides.
 */
export type SpecFieldReport = Record<SpecField, { present: number; parsed: number; unreadable: Array<{ text: string; count: number }> }>;

export function buildSpecFieldReport(products: readonly Pick<CatalogProduct, "Specifications">[]): SpecFieldReport {
  const report = {} as SpecFieldReport;
  const unreadable = new Map<SpecField, Map<string, number>>();
  for (const field of SPEC_FIELD_KEYS) {
    report[field] = { present: 0, parsed: 0, unreadable: [] };
    unreadable.set(field, new Map());
  }
  for (const product of products) {
    for (const [field, reading] of Object.entries(readSpecFields(product.Specifications)) as Array<[SpecField, { text: string; value: unknown }]>) {
      report[field].present += 1;
      if (reading.value !== null) report[field].parsed += 1;
      else {
        const texts = unreadable.get(field) as Map<string, number>;
        texts.set(reading.text, (texts.get(reading.text) ?? 0) + 1);
      }
    }
  }
  for (const field of SPEC_FIELD_KEYS) {
    report[field].unreadable = [...(unreadable.get(field) as Map<string, number>).entries()]
      .map(([text, count]) => ({ text, count }))
      .sort((a, b) => b.count - a.count || compareStrings(a.text, b.text));
  }
  return report;
}

/** The console lines printed by `npm run catalog:import`. */
export function formatSpecFieldReport(report: SpecFieldReport): string {
  const lines = ["Specifications normalized for the buying guides (field: parsed / present, unreadable texts):"];
  for (const field of SPEC_FIELD_KEYS) {
    const { present, parsed, unreadable } = report[field];
    const label = `${SPEC_FIELDS[field].label} (${SPEC_FIELDS[field].unit})`;
    lines.push(`  ${label.padEnd(34)} ${String(parsed).padStart(5)} / ${String(present).padEnd(5)}`);
    for (const { text, count } of unreadable) lines.push(`      unreadable ×${count}: ${JSON.stringify(text)}`);
  }
  return lines.join("\n");
}
