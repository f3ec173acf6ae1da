import type { Candidate } from "./candidate";
import { categoryFromTitle, pathKey } from "./category";
import { compareStrings } from "./normalize";

/**
 * Step 2 of the import (see ./pipeline.ts): gaps are filled from other
 * records. A missing Category from the same Id, then the same Model, in a
 * brand file, then title keywords, then a fallback path; a null price from the
 * same Id, then the same Model, in any file (brand files first). Candidates
 * are updated in place and each repair is noted on the candidate.
 */

/** Brand-file candidates first, then file order: the lookup order for repairs. */
function lookupOrder(a: Candidate, b: Candidate): number {
  if (a.fromBrandFile !== b.fromBrandFile) return a.fromBrandFile ? -1 : 1;
  return compareStrings(a.file, b.file) || a.index - b.index;
}

export function fillGaps(candidates: readonly Candidate[]): void {
  // Lookups are arrays in lookup order, never Map iteration.
  const ordered = [...candidates].sort(lookupOrder);
  const categoryDonors = ordered.filter((c) => c.fromBrandFile && c.category !== null);
  const priceDonors = ordered.filter((c) => c.price !== null);
  const knownPaths = new Set(categoryDonors.map((c) => pathKey(c.category ?? [])));

  for (const candidate of candidates) {
    if (candidate.category === null) fillCategory(candidate, categoryDonors, knownPaths);
    if (candidate.price === null) fillPrice(candidate, priceDonors);
  }
}

function fillCategory(candidate: Candidate, donors: readonly Candidate[], knownPaths: ReadonlySet<string>): void {
  const sameId = donors.find((d) => d !== candidate && d.id === candidate.id);
  const sameModel = candidate.model === "" ? undefined : donors.find((d) => d !== candidate && d.model === candidate.model);
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
      derived.rule === "title keywords" ? "category derived from title keywords" : "category fallback (no title keyword matched)",
    );
  }
}

function fillPrice(candidate: Candidate, donors: readonly Candidate[]): void {
  const sameId = donors.find((d) => d !== candidate && d.id === candidate.id);
  const sameModel = candidate.model === "" ? undefined : donors.find((d) => d !== candidate && d.model === candidate.model);
  if (sameId?.price) {
    candidate.price = sameId.price;
    candidate.repairs.push("price taken from same Id");
  } else if (sameModel?.price) {
    candidate.price = sameModel.price;
    candidate.repairs.push("price taken from same Model");
  }
}
