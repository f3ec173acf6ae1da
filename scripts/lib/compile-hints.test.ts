import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMPILE_HINT, markFirstLoadScripts } from "./compile-hints";

describe("markFirstLoadScripts", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "compile-hints-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const manifest = {
    entry: { module: "/build/entry.client-A.js", imports: ["/build/_shared/chunk-REACT.js"] },
    routes: {
      root: { id: "root", module: "/build/root-B.js", imports: ["/build/_shared/chunk-ROOT.js"] },
      "routes/_index": { id: "routes/_index", parentId: "root", index: true, module: "/build/routes/_index-C.js" },
    },
  };
  const firstLoad = ["entry.client-A.js", "_shared/chunk-REACT.js", "root-B.js", "_shared/chunk-ROOT.js", "routes/_index-C.js"];
  const read = (name: string) => readFileSync(path.join(directory, name), "utf8");

  it("marks every script the manifest names, and no part loaded by import()", async () => {
    mkdirSync(path.join(directory, "_shared"));
    mkdirSync(path.join(directory, "routes"));
    writeFileSync(path.join(directory, "manifest-X.js"), `window.__remixManifest=${JSON.stringify(manifest)};`);
    for (const name of [...firstLoad, "_shared/Carousel-D.js"]) writeFileSync(path.join(directory, name), `export const name = "${name}";`);

    const marked = await markFirstLoadScripts(directory);

    expect(marked.sort()).toEqual(firstLoad.map((name) => `/build/${name}`).sort());
    for (const name of firstLoad) expect(read(name)).toBe(`${COMPILE_HINT}export const name = "${name}";`);
    expect(read("_shared/Carousel-D.js")).toBe('export const name = "_shared/Carousel-D.js";');
  });

  it("changes nothing when run again", async () => {
    expect(await markFirstLoadScripts(directory)).toEqual([]);
    expect(read("root-B.js").split(COMPILE_HINT)).toHaveLength(2);
  });
});
