import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The provider SDKs, sharp and PGlite are imported on first use
 * (`app/utils/import-once.server.ts`), so a store on PostgreSQL with the
 * stand-ins never loads them (about 33 MB of resident memory). A value import
 * of one of them anywhere in the server's code would load it at start-up:
 * only `import type` and `import()` may name them.
 */
const LOADED_ON_FIRST_USE = ["stripe", "openai", "postmark", "sharp", "@electric-sql/pglite", "drizzle-orm/pglite"];
const ROOTS = ["app", "server"];

function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => path.join(root, name));
}

/** `import x from "pkg"`, `import { x } from "pkg/sub"`, `import "pkg"`, `export { x } from "pkg"`: not `import type`. */
function valueImportsOf(source: string): string[] {
  const statements = source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?["']([^"']+)["']/gm);
  return [...statements].map((match) => match[1]);
}

describe("modules loaded on first use", () => {
  it("no server module imports a provider SDK, sharp or PGlite at start-up", () => {
    const found = ROOTS.flatMap(sourceFiles).flatMap((file) =>
      valueImportsOf(readFileSync(file, "utf8"))
        .filter((specifier) => LOADED_ON_FIRST_USE.some((name) => specifier === name || specifier.startsWith(`${name}/`)))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it("the check sees value imports and lets type imports and import() through", () => {
    const source = [
      'import Stripe from "stripe";',
      'import { PGlite } from "@electric-sql/pglite";',
      'import type OpenAI from "openai";',
      'const sharp = await import("sharp");',
    ].join("\n");
    expect(valueImportsOf(source)).toEqual(["stripe", "@electric-sql/pglite"]);
  });
});
