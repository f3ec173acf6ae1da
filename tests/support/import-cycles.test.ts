import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No module of the app or the server imports itself through others: a circle
 * makes the order modules load in decide what a module sees (an import still
 * undefined at the time), and usually means two modules that are one. Type
 * imports count too, as madge counts them. `npx madge --circular --extensions
 * ts,tsx app server` finds the same circles. A lazy `import()` is not an edge:
 * it runs after every module has loaded, and the browser's on-demand parts
 * (carousels, the error page) import the shared client module they are listed in.
 */
const ROOTS = ["app", "server"];
const EXTENSIONS = [".ts", ".tsx", ".js", ".jsx"];

describe("imports", () => {
  it("form no circle in app/ and server/", () => {
    expect(importCycles(sourceFiles(ROOTS))).toEqual([]);
  });

  it("are caught when they form a circle (the check itself, on a made-up graph)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});

function sourceFiles(roots: string[]): string[] {
  return roots.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
      .map((name) => path.join(root, name)),
  );
}

function importCycles(files: string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(withoutLazyImports(readFileSync(file, "utf8")), true, true);
    graph.set(
      file,
      importedFiles.map(({ fileName }) => resolve(file, fileName)).filter((target): target is string => target !== null),
    );
  }
  return cyclesOf(graph);
}

/** The source with each `import(` call made a plain call, so only static imports are read. */
function withoutLazyImports(source: string): string {
  return source.replace(/\bimport\(/g, "(");
}

/** The file an import names, when it is one of ours. */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/")
    ? path.join("app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (base === null) return null;
  const withoutJs = base.replace(/\.js$/, "");
  const candidates = [base, ...EXTENSIONS.map((ext) => withoutJs + ext), ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`))];
  return candidates.find((candidate) => /\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) ?? null;
}

/** Each circle once, as the files of a strongly connected component (Tarjan), sorted. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };

  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}
