import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findCatalogSource } from "./catalog-source";

describe("the catalogue importer's source folder", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "catalog-source-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("lists the .json files of a folder holding brand files, in a stable order, resolved against the repository", () => {
    mkdirSync(path.join(root, "raw"));
    for (const name of ["products.json", "blaze.json", "README.md", "alfresco.json"]) writeFileSync(path.join(root, "raw", name), "[]");
    expect(findCatalogSource("raw", root)).toEqual({
      ok: true,
      dir: path.join(root, "raw"),
      fileNames: ["alfresco.json", "blaze.json", "products.json"],
    });
  });

  it.each([
    [undefined, "No catalogue source at ../shared/reference-catalog."],
    ["missing", "No catalogue source at missing."],
    ["a-file.json", "No catalogue source at a-file.json."],
    ["empty", "No brand files (such as blaze.json) in empty."],
    ["general-only", "No brand files (such as blaze.json) in general-only."],
  ])("refuses %j in one line that says how to pass one", (source, message) => {
    const repo = path.join(root, "repo");
    mkdirSync(path.join(repo, "empty"), { recursive: true });
    mkdirSync(path.join(repo, "general-only"));
    writeFileSync(path.join(repo, "general-only", "products.json"), "[]");
    writeFileSync(path.join(repo, "a-file.json"), "[]");
    expect(findCatalogSource(source, repo)).toEqual({
      ok: false,
      error: `${message} Pass one with: npm run catalog:import -- --source DIR`,
    });
  });
});
