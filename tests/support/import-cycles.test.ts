import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No module of the app or the server imports itself through others: a circle
 * makes the order modules load in decide what a module sees (an import still
 * undefined at the time), and usually means two modules that are one. An
 * `import type` or `export type` is left out: it is gone once compiled (a
 * component may name a route's loader type, and the route root's handle type).
 * A lazy `import()` is an edge:
 * in the browser a part loaded on demand is a chunk of its own, and a part that
 * imports (directly or not) the module that loads it ties the two together (the
 * on-demand carousel, chat button and error page imported ~/components/shared,
 * which listed their loaders). Each part's loader therefore sits beside what
 * draws it, never behind shared.ts.
 */
const ROOTS = ["app", "server"];
const EXTENSIONS = [".ts", ".tsx", ".js", ".jsx"];

describe("imports", () => {
  it("form no circle in app/ and server/", () => {
    const graph = importGraph(sourceFiles(ROOTS));
    const cycles = cyclesOf(graph);
    // Each circle's files, and one way round it.
    expect(cycles.map((files) => ({ files, loop: loopThrough(graph, files).join(" -> ") }))).toEqual([]);
  });

  it("are read from static imports, re-exports and lazy import() calls", () => {
    const source = [
      'import { a } from "~/components/shared";',
      'import type { B } from "./b";',
      'export { c } from "../c";',
      'export type { E } from "./e";',
      'const D = deferred(() => import("./d").then((module) => module.D));',
    ].join("\n");
    expect(specifiers(source)).toEqual(["~/components/shared", "../c", "./d"]);
  });

  it("are caught when they form a circle (the check itself, on a made-up graph)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(loopThrough(graph, ["a.ts", "b.ts", "c.ts"])).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
  });
});

function sourceFiles(roots: string[]): string[] {
  return roots.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
      .map((name) => path.join(root, name)),
  );
}

/** Each file and the files of ours it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    graph.set(
      file,
      specifiers(readFileSync(file, "utf8"))
        .map((specifier) => resolve(file, specifier))
        .filter((target): target is string => target !== null),
    );
  }
  return graph;
}

/** What a source imports at run time: `import`, `export ... from` and `import()` calls, not `import type`/`export type`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteralLike(specifier)) found.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("source.tsx", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX));
  return found;
}

/** One way round a circle: from its first file back to it, through its files only (breadth first). */
function loopThrough(graph: Map<string, string[]>, files: string[]): string[] {
  const inside = new Set(files);
  const start = files[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return files;
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
