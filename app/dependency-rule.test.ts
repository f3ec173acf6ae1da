import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Dependencies point one way: routes -> domain -> services/db, never back.
 * This scans every module under app/ (tests excluded) and names each import
 * that breaks the rule, so drift is caught by `npm test`.
 */

const APP = path.resolve("app");
const EXTENSIONS = [".ts", ".tsx"];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return EXTENSIONS.includes(path.extname(entry.name)) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The app-relative module a specifier names ("catalog/brands"), or null for packages and node built-ins. */
function resolveSpecifier(file: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.resolve(path.dirname(file), specifier);
  else return null;
  return path
    .relative(APP, target)
    .replace(/\\/g, "/")
    .replace(/\.(tsx?|js)$/, "");
}

const IMPORT_PATTERN = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT_PATTERN = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const from = path
    .relative(APP, file)
    .replace(/\\/g, "/")
    .replace(/\.tsx?$/, "");
  const found: Import[] = [];
  for (const match of text.matchAll(IMPORT_PATTERN)) {
    const to = resolveSpecifier(file, match[3]);
    if (to) found.push({ from, to, typeOnly: Boolean(match[2]) });
  }
  for (const match of text.matchAll(DYNAMIC_IMPORT_PATTERN)) {
    const to = resolveSpecifier(file, match[1]);
    if (to) found.push({ from, to, typeOnly: false });
  }
  return found;
}

const under = (module: string, folder: string) => module === folder || module.startsWith(`${folder}/`);
const isRoute = (module: string) => under(module, "routes") || module === "root";

/**
 * Plain vocabulary every layer may share: constants with no imports of their own
 * (the order statuses and staff roles are checked by the schema and shown by the dashboard; the recorded tax is a column's shape).
 */
const SHARED_VOCABULARY = new Set(["orders/status", "orders/customer", "tax/recorded-tax", "staff/roles"]);

/** Modules a service, the database layer, the job queue and utils may use: nothing of the domain above them. */
const isLowerLayer = (module: string) =>
  under(module, "services") ||
  under(module, "db") ||
  under(module, "jobs") ||
  under(module, "utils") ||
  module === "config.server" ||
  module === "public-config.server" ||
  // The one log every layer writes to, and the request it writes for.
  module === "observability/logger.server" ||
  module === "observability/request-context.server" ||
  // The metrics every layer counts into, as it logs.
  module === "observability/metrics.server" ||
  SHARED_VOCABULARY.has(module);

/** Each rule says which imports break it, and why. */
const RULES: Array<{ name: string; breaks: (edge: Import) => boolean }> = [
  {
    // Components may name a route's loader or action type for useFetcher/useRouteLoaderData; nothing else reaches up.
    name: "only routes import routes (components may import route types)",
    breaks: ({ from, to, typeOnly }) => isRoute(to) && !isRoute(from) && !(typeOnly && under(from, "components")),
  },
  {
    name: "runtime catalog code never imports the build-time importer (app/catalog/import)",
    breaks: ({ from, to }) => under(from, "catalog") && !under(from, "catalog/import") && under(to, "catalog/import"),
  },
  {
    name: "services, the database layer and utils import no domain module",
    breaks: ({ from, to }) =>
      (under(from, "services") || under(from, "db") || under(from, "utils")) && !isLowerLayer(to) && to !== "store-runtime",
  },
  {
    name: "the database layer imports neither services nor utils",
    breaks: ({ from, to }) => under(from, "db") && (under(to, "services") || under(to, "utils")),
  },
  {
    // The server's composition root (server/main.ts) starts the runtime and hands it to loaders and actions in their
    // context; app code is given it (or its database and settings, typed by store-runtime.ts) and never starts one.
    name: "app code never starts the runtime",
    breaks: ({ to }) => to === "runtime.server",
  },
];

/** The process configuration's one reader (config.server.ts), named anywhere else in app/. */
const READS_CONFIGURATION = /\bgetConfig\b/;

/** Known breaks in code another change owns; each should disappear, never grow. */
const KNOWN_BREAKS = new Set<string>([]);

/**
 * Packages loaded on first use (`utils/import-once.server.ts`, and PGlite in `db/database.server.ts`), so a
 * store on PostgreSQL with the stand-ins never carries them (about 33 MB resident). A value import anywhere in
 * app/ (server/ only composes it) would load one at start-up: only `import type` and `import()` may name them.
 */
const LOADED_ON_FIRST_USE = ["stripe", "openai", "postmark", "sharp", "@electric-sql/pglite", "drizzle-orm/pglite"];

/** The packages of LOADED_ON_FIRST_USE a source imports as values ("stripe", "drizzle-orm/pglite/migrator"). */
function startUpImportsOfFirstUsePackages(source: string): string[] {
  return [...source.matchAll(IMPORT_PATTERN)]
    .filter((match) => !match[2])
    .map((match) => match[3])
    .filter((specifier) => LOADED_ON_FIRST_USE.some((name) => specifier === name || specifier.startsWith(`${name}/`)));
}

describe("the dependency rule (routes -> domain -> services/db)", () => {
  const edges = sourceFiles(APP).flatMap(importsOf);

  it("finds the imports it checks", () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: "server-api", to: "cart/cart-cookie.server", typeOnly: false });
    // A multi-line import, and a type-only one.
    expect(edges).toContainEqual({ from: "routes/_staff.dashboard", to: "staff/dashboard.server", typeOnly: false });
    expect(edges).toContainEqual({ from: "components/staff/OrderPanel", to: "staff/dashboard.server", typeOnly: true });
  });

  it.each(RULES)("$name", ({ breaks }) => {
    const broken = edges
      .filter(breaks)
      .map(({ from, to }) => `${from} -> ${to}`)
      .filter((edge) => !KNOWN_BREAKS.has(edge));
    expect(broken).toEqual([]);
  });

  it("loads the provider SDKs, sharp and PGlite on first use, never at start-up", () => {
    const found = sourceFiles(APP).flatMap((file) =>
      startUpImportsOfFirstUsePackages(readFileSync(file, "utf8")).map((specifier) => `${path.relative(APP, file)}: ${specifier}`),
    );
    expect(found).toEqual([]);
    // The check itself: value imports are seen, type imports and import() let through.
    const sample = ['import Stripe from "stripe";', 'import { PGlite } from "@electric-sql/pglite";', 'import type OpenAI from "openai";'];
    expect(startUpImportsOfFirstUsePackages([...sample, 'const sharp = await import("sharp");'].join("\n"))).toEqual([
      "stripe",
      "@electric-sql/pglite",
    ]);
  });

  it("reads the configuration only where the runtime hands it over: no getConfig() outside config.server.ts", () => {
    // The composition root (server/main.ts) reads it once; app code is given `context.store.config` or its services.
    const readers = sourceFiles(APP)
      .filter((file) => path.relative(APP, file) !== "config.server.ts")
      .filter((file) => READS_CONFIGURATION.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(APP, file).replace(/\\/g, "/"));
    expect(readers).toEqual([]);
    // The check itself: an import, a call and a dynamic import's member are seen.
    expect(
      ['import { getConfig } from "~/config.server";', "const c = getConfig();", "(await import(x)).getConfig"].every((line) =>
        READS_CONFIGURATION.test(line),
      ),
    ).toBe(true);
  });

  it("has no stale known break", () => {
    const all = new Set(edges.filter((edge) => RULES.some((rule) => rule.breaks(edge))).map(({ from, to }) => `${from} -> ${to}`));
    expect([...KNOWN_BREAKS].filter((edge) => !all.has(edge))).toEqual([]);
  });
});
