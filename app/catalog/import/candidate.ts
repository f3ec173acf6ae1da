import type { BrandKey, Specification } from "../product";

/** A source record after step 1, carried through the later steps (steps 2 and 3 fill its gaps). */
export type Candidate = {
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

/** A source record left out of the catalog; `kind` groups drops in the report, `reason` says why. */
export type Drop = { candidateFile: string; index: number; id: string | null; kind: string; reason: string };

export function isDrop(value: Candidate | Drop): value is Drop {
  return "kind" in value;
}

/** A drop of a record that made it past step 1. */
export function dropCandidate(candidate: Candidate, kind: string, reason = kind): Drop {
  return { candidateFile: candidate.file, index: candidate.index, id: candidate.id, kind, reason };
}
