import { readdirSync } from "node:fs";
import path from "node:path";
import { BRAND_KEYS } from "../../app/catalog/brands";

/** Where the importer reads the raw reference catalogue when no --source is given (relative to the repository). */
const DEFAULT_CATALOG_SOURCE = "../shared/reference-catalog";

const PASS_ONE = "Pass one with: npm run catalog:import -- --source DIR";

export type CatalogSource = { ok: true; dir: string; fileNames: string[] } | { ok: false; error: string };

/**
 * The source folder of `npm run catalog:import` (`--source DIR`, resolved
 * against the repository like the default) and its .json files in a stable
 * order, or one line saying what is wrong: no such folder, or no brand file
 * (`blaze.json`, ...) in it.
 */
export function findCatalogSource(source: string | undefined, repoRoot: string): CatalogSource {
  const shown = source ?? DEFAULT_CATALOG_SOURCE;
  const dir = path.resolve(repoRoot, shown);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, error: `No catalogue source at ${shown}. ${PASS_ONE}` };
    return { ok: false, error: `Cannot read the catalogue source ${shown} (${code ?? String(error)}). ${PASS_ONE}` };
  }
  const fileNames = names.filter((name) => name.toLowerCase().endsWith(".json")).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const brandFiles = new Set<string>(BRAND_KEYS.map((brand) => `${brand}.json`));
  if (!fileNames.some((name) => brandFiles.has(name))) {
    return { ok: false, error: `No brand files (such as blaze.json) in ${shown}. ${PASS_ONE}` };
  }
  return { ok: true, dir, fileNames };
}
