/**
 * Catalog importer: reads the raw reference catalog (default
 * ../shared/reference-catalog relative to the repository root, or --source DIR),
 * normalizes and validates every record, and writes catalog/{brand}.json,
 * catalog/custom_product.json and catalog/import-report.json.
 *
 *   npx tsx scripts/catalog-import.ts [--source DIR] [--out DIR] [--quiet]
 *
 * Output is byte-identical between runs on the same input. A source file that
 * cannot be parsed or is not a list is reported and skipped, and the output it
 * feeds keeps its last good version: catalog/{brand}.json for a brand's own file,
 * every output for the general set. The run then exits non-zero, as it does when
 * read != kept + dropped.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BRAND_KEYS } from "../app/catalog/brands";
import { runImport, type SourceFile } from "../app/catalog/import/pipeline";
import { formatReport } from "../app/catalog/import/report";
import { formatSpecFieldReport } from "../app/catalog/import/spec-report";
import { findCatalogSource } from "./lib/catalog-source";
import { HELP_OPTION, parseCli } from "./lib/cli";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = "Usage: npm run catalog:import -- [--source DIR] [--out DIR] [--quiet]";

const flags = (() => {
  try {
    return parseCli(process.argv.slice(2), {
      ...HELP_OPTION,
      source: { type: "string" },
      out: { type: "string" },
      quiet: { type: "boolean" },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

const source = findCatalogSource(flags.source, repoRoot);
if (!source.ok) {
  console.error(source.error);
  process.exit(1);
}
const { dir: sourceDir, fileNames } = source;
const outDir = path.resolve(repoRoot, flags.out ?? "catalog");
const quiet = flags.quiet === true;

const failed: string[] = [];
const sources: SourceFile[] = fileNames.flatMap((file) => {
  const text = readFileSync(path.join(sourceDir, file), "utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    console.error(`Cannot parse ${file}, skipped: ${(error as Error).message}`);
    failed.push(file);
    return [];
  }
  if (!Array.isArray(data)) {
    console.error(`${file} does not hold a JSON array, skipped`);
    failed.push(file);
    return [];
  }
  return [{ file, records: data }];
});

const { report, specFields, files } = runImport(sources, path.basename(sourceDir));

/** Outputs left as they are because a file feeding them failed: the brand's own, or all but the report. */
const brandOutputs = new Set(Object.keys(files).filter((name) => name !== "import-report.json"));
const keepAll = failed.some((file) => !(BRAND_KEYS as readonly string[]).includes(file.replace(/\.json$/, "")));
const kept = new Set(keepAll ? brandOutputs : failed);

mkdirSync(outDir, { recursive: true });
for (const name of Object.keys(files).sort()) {
  if (kept.has(name)) {
    console.error(`${name}: kept the last good version.`);
    continue;
  }
  writeFileSync(path.join(outDir, name), files[name] ?? "", "utf8");
}

if (!quiet) console.log(formatReport(report));
if (!quiet) console.log(formatSpecFieldReport(specFields));
console.log(
  `catalog: read ${report.read}, kept ${report.kept}, dropped ${report.dropped}, repaired ${report.repaired}; wrote ${
    Object.keys(files).length
  } files to ${path.relative(repoRoot, outDir) || "."}`,
);
if (report.read !== report.kept + report.dropped) {
  console.error("read != kept + dropped");
  process.exit(1);
}
if (failed.length > 0) process.exit(1);
