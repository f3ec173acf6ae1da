import { productKey } from "../product";
import { CUSTOM_PRODUCTS } from "../custom-product";
import { dropCandidate, type Candidate, type Drop } from "./candidate";
import { compareIds, compareStrings } from "./normalize";
import type { ValidProduct } from "./step3-validate";

/**
 * Step 4 of the import (see ./pipeline.ts): Ids are made unique across the
 * whole catalog. DUPLICATE RULE: among the valid records sharing an Id the
 * importer keeps, in this order of preference: (a) a record from a brand file
 * over one from products.json; (b) a record whose price was in the source over
 * one whose price was recovered; (c) the record with more specifications after
 * cleaning; (d) the first record in file order (files by name, then position).
 * The others are dropped with "duplicate id (kept {brand}-{Id} from file
 * {file}, record {n})". The store's own product Id is reserved.
 */

type Preferable = Pick<Candidate, "fromBrandFile" | "priceFromSource" | "specifications" | "file" | "index">;

/** The duplicate preference above. Negative = a is kept first. */
export function duplicatePreference(a: Preferable, b: Preferable): number {
  if (a.fromBrandFile !== b.fromBrandFile) return a.fromBrandFile ? -1 : 1;
  if (a.priceFromSource !== b.priceFromSource) return a.priceFromSource ? -1 : 1;
  if (a.specifications.length !== b.specifications.length) return b.specifications.length - a.specifications.length;
  return compareStrings(a.file, b.file) || a.index - b.index;
}

export function keepUniqueIds(valid: readonly ValidProduct[]): { kept: ValidProduct[]; drops: Drop[] } {
  const reserved = new Set(CUSTOM_PRODUCTS.map((p) => p.Id));
  const byPreference = [...valid].sort(
    (a, b) => compareIds(a.candidate.id, b.candidate.id) || duplicatePreference(a.candidate, b.candidate),
  );
  const kept: ValidProduct[] = [];
  const drops: Drop[] = [];
  let current: ValidProduct | null = null;
  for (const entry of byPreference) {
    const { candidate } = entry;
    if (reserved.has(candidate.id)) {
      drops.push(dropCandidate(candidate, "duplicate id", "duplicate id (reserved for the store's own product)"));
      continue;
    }
    if (current && current.candidate.id === candidate.id) {
      const keptFrom = `kept ${productKey(current.product)} from file ${current.candidate.file}, record ${current.candidate.index + 1}`;
      drops.push(dropCandidate(candidate, "duplicate id", `duplicate id (${keptFrom})`));
      continue;
    }
    current = entry;
    kept.push(entry);
  }
  return { kept, drops };
}
