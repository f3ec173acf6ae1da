/**
 * What JavaScript each route ships on a first visit, from the Remix classic
 * compiler's output.
 *
 * With `v3_lazyRouteDiscovery` the page inlines a partial manifest and loads
 * (modulepreload + import) exactly: the entry module and its imports, and for
 * every matched route (root, any parent layouts, the route) its module and
 * its imports. That is what is summed here, each file gzipped on its own (as
 * a server sends it) and counted once. Chunks reached only through a dynamic
 * `import()` are not in the manifest and are not counted: that is how the
 * heavy client libraries are meant to load.
 *
 * Which libraries a chunk holds comes from esbuild's metafile
 * (`build/metafile.js.json`, written by `remix build` next to the server
 * build): its outputs list the input files of every chunk, so node_modules
 * packages are known exactly. esbuild names shared chunks `chunk-HASH.js`,
 * so the file names say nothing. When the metafile is missing or belongs to
 * another build, string markers that survive minification are used instead
 * (checked against minified bundles of each library).
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** What a first visit to any storefront route may load: script gzipped, and script files (lazy chunks apart). */
export const BUDGET = { kb: 100, files: 15 } as const;

export interface Budget {
  kb: number;
  files: number;
}

/**
 * Routes that do not fit BUDGET yet, each held to what it loaded when the budget was set
 * (production build, 2026-11-26, rounded up to the next 0.1 KB), so it can only
 * shrink; remove a route once it fits.
 */
export const BUDGET_EXCEPTIONS: Readonly<Record<string, Budget>> = {};

export function routeBudget(routeId: string): Budget {
  return BUDGET_EXCEPTIONS[routeId] ?? BUDGET;
}
/** KB here means 1,024 bytes. */
export const KB = 1024;

/** Storefront routes measured when present in the manifest; checkout routes are added by `isCheckoutRoute`. */
export const STOREFRONT_ROUTE_IDS = [
  "root",
  "routes/_index",
  "routes/products.$brand.$category",
  "routes/product.$productKey",
  "routes/finding.$search",
  "routes/custom-product",
  "routes/cart",
  "routes/contact",
  "routes/love-rub",
] as const;

/** Checkout screens: /checkout, /single-product-checkout, /custom-product-checkout and their children. */
export function isCheckoutRoute(routeId: string): boolean {
  return /checkout/i.test(routeId);
}

export type WatchedLibrary = "swiper" | "@stripe" | "@paypal" | "@vis.gl/react-google-maps";
export const WATCHED_LIBRARIES: readonly WatchedLibrary[] = ["swiper", "@stripe", "@paypal", "@vis.gl/react-google-maps"];

/** The npm packages that make up each watched library. */
function watchedLibraryOfPackage(pkg: string): WatchedLibrary | null {
  if (pkg === "swiper") return "swiper";
  if (pkg.startsWith("@stripe/")) return "@stripe";
  if (pkg.startsWith("@paypal/")) return "@paypal";
  if (pkg === "@vis.gl/react-google-maps" || pkg.startsWith("@googlemaps/")) return "@vis.gl/react-google-maps";
  return null;
}

/**
 * Strings that survive minification, for builds without a usable metafile.
 * They come from the libraries' own code (option and property names, error
 * messages, loader tags), not from markup an app might copy: the store's
 * Carousel renders swiper's class names (`swiper-wrapper`) itself before
 * swiper loads, so class names would be false positives. Checked against
 * minified esbuild bundles of swiper/react, @stripe/stripe-js,
 * @stripe/react-stripe-js, @paypal/react-paypal-js and @vis.gl/react-google-maps.
 */
const CONTENT_MARKERS: Record<WatchedLibrary, RegExp> = {
  swiper: /touchEventsData|slidesPerGroupSkip|Swiper Loop Warning/,
  "@stripe": /setLoadParameters|Could not find Elements context|react-stripe-js/,
  "@paypal": /dataJsSdkLibrary|react-paypal-js|paypal\.com\/sdk\/js/,
  "@vis.gl/react-google-maps": /APIProviderContext|visgl\/react-google-maps|@googlemaps\/js-api-loader/,
};

/**
 * The libraries each route may load up front: carousels on the pages that
 * show one (spec: home, product detail, own seasoning, landing page, the
 * checkout-area carousel); payment and maps (address autocomplete) only at
 * checkout. Root's chunks reach every route, so root is allowed none.
 */
export function allowedLibraries(routeId: string): ReadonlySet<WatchedLibrary> {
  if (isCheckoutRoute(routeId)) return new Set(WATCHED_LIBRARIES);
  const carouselRoutes = ["routes/_index", "routes/product.$productKey", "routes/custom-product", "routes/love-rub"];
  return new Set(carouselRoutes.includes(routeId) ? ["swiper"] : []);
}

export interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}

export interface RemixManifest {
  version?: string;
  url?: string;
  entry: { module: string; imports?: string[] };
  routes: Record<string, ManifestRoute>;
}

/** Parses `manifest-*.js`: `window.__remixManifest={...};`. */
export function parseManifest(text: string): RemixManifest {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (!/__remixManifest\s*=/.test(text) || start < 0 || end < start) {
    throw new Error("not a Remix manifest (expected window.__remixManifest = {...})");
  }
  const manifest = JSON.parse(text.slice(start, end + 1)) as RemixManifest;
  if (!manifest.entry?.module || !manifest.routes) throw new Error("Remix manifest without entry or routes");
  return manifest;
}

export interface BuildPaths {
  /** Project root; defaults to the current directory. */
  root?: string;
  /** Where the browser build lives (remix.config `assetsBuildDirectory`). */
  publicBuildDir?: string;
  /** The URL prefix of that directory (remix.config `publicPath`). */
  publicPath?: string;
  /** esbuild's metafile of the browser build. */
  metafile?: string;
  /**
   * How to find libraries in chunks: `auto` (default) uses the metafile when
   * it describes this build and string markers otherwise; `content` always
   * uses the markers (a second opinion that needs no metafile).
   */
  detection?: "auto" | "content";
}

export interface ChunkInfo {
  /** URL as in the manifest, e.g. `/build/_shared/chunk-ABC.js`. */
  url: string;
  file: string;
  rawBytes: number;
  gzipBytes: number;
  /** npm packages bundled into the chunk (metafile only; empty with content markers). */
  packages: string[];
  libraries: WatchedLibrary[];
}

export interface ClientBuild {
  manifestFile: string;
  manifest: RemixManifest;
  builtAt: Date;
  /** How libraries were found: esbuild's metafile, or string markers in the chunks. */
  detection: "metafile" | "content";
  chunk(url: string): ChunkInfo;
  /**
   * The app modules a route statically imports (directly or not) that import
   * `pkg` themselves: where to cut to get the package off the route's first
   * visit. Empty without a metafile.
   */
  importersOf(routeId: string, pkg: string): string[];
}

type MetaInputs = Record<string, { imports?: Array<{ path: string; kind?: string; external?: boolean }> }>;
type MetaOutputs = Record<string, { entryPoint?: string; inputs?: Record<string, { bytesInOutput?: number }> }>;

export function newestManifestFile(dir: string): string {
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: run \`npx remix build\` first`);
  const candidates = readdirSync(dir)
    .filter((name) => /^manifest-[A-Za-z0-9]+\.js$/.test(name))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (candidates.length === 0) throw new Error(`no manifest-*.js in ${dir}: run \`npx remix build\` first`);
  return candidates[0];
}

function packageOfInput(input: string): string | null {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const parts = input.slice(at + "node_modules/".length).split("/");
  return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The file under `publicBuildDir` that a manifest URL (`/build/...`, under `publicPath`) names. */
export function manifestUrlToFile(url: string, publicBuildDir: string, publicPath = "/build/"): string {
  if (!url.startsWith(publicPath)) throw new Error(`${url} is outside the public path ${publicPath}`);
  return path.join(publicBuildDir, url.slice(publicPath.length));
}

/** Every JS file the manifest names (entry, route modules and their imports). */
export function manifestFiles(manifest: RemixManifest): string[] {
  const urls = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (const route of Object.values(manifest.routes)) {
    urls.add(route.module);
    for (const url of route.imports ?? []) urls.add(url);
  }
  return [...urls];
}

/** Reads the newest client build; chunk sizes are computed once per file. */
export function loadClientBuild(paths: BuildPaths = {}): ClientBuild {
  const root = path.resolve(paths.root ?? ".");
  const publicBuildDir = path.resolve(root, paths.publicBuildDir ?? "public/build");
  const publicPath = paths.publicPath ?? "/build/";
  const metafilePath = path.resolve(root, paths.metafile ?? "build/metafile.js.json");
  const manifestFile = newestManifestFile(publicBuildDir);
  const manifest = parseManifest(readFileSync(manifestFile, "utf8"));

  const fileOf = (url: string) => manifestUrlToFile(url, publicBuildDir, publicPath);

  // Metafile outputs are keyed by path relative to the project root.
  let packagesByFile: Map<string, string[]> | null = null;
  let metaInputs: MetaInputs = {};
  let metaOutputs: MetaOutputs = {};
  if (paths.detection !== "content" && existsSync(metafilePath)) {
    try {
      const meta = JSON.parse(readFileSync(metafilePath, "utf8")) as { inputs?: MetaInputs; outputs: MetaOutputs };
      metaInputs = meta.inputs ?? {};
      metaOutputs = meta.outputs ?? {};
      const map = new Map<string, string[]>();
      for (const [output, info] of Object.entries(meta.outputs ?? {})) {
        const packages = new Set<string>();
        for (const [input, contribution] of Object.entries(info.inputs ?? {})) {
          // A stylesheet import (`import "swiper/swiper-bundle.css"`) is listed
          // with 0 bytes in the JS chunk: its CSS goes to the CSS bundle.
          if (!contribution.bytesInOutput || /\.css$/i.test(input)) continue;
          const pkg = packageOfInput(input);
          if (pkg) packages.add(pkg);
        }
        map.set(path.resolve(root, output), [...packages].sort());
      }
      // Only trust a metafile that describes this very build.
      if (manifestFiles(manifest).every((url) => map.has(fileOf(url)))) packagesByFile = map;
    } catch {
      packagesByFile = null;
    }
  }

  const cache = new Map<string, ChunkInfo>();
  const chunk = (url: string): ChunkInfo => {
    const cached = cache.get(url);
    if (cached) return cached;
    const file = fileOf(url);
    if (!existsSync(file)) throw new Error(`${url} is in the manifest but ${file} is missing`);
    const bytes = readFileSync(file);
    let packages: string[] = [];
    let libraries: WatchedLibrary[];
    if (packagesByFile) {
      packages = packagesByFile.get(file) ?? [];
      libraries = [...new Set(packages.map(watchedLibraryOfPackage).filter((lib): lib is WatchedLibrary => lib !== null))];
    } else {
      const text = bytes.toString("utf8");
      libraries = WATCHED_LIBRARIES.filter((lib) => CONTENT_MARKERS[lib].test(text));
    }
    const info: ChunkInfo = {
      url,
      file,
      rawBytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      packages,
      libraries,
    };
    cache.set(url, info);
    return info;
  };

  const importersOf = (routeId: string, pkg: string): string[] => {
    if (!packagesByFile) return [];
    const route = manifest.routes[routeId];
    if (!route) return [];
    const starts = routeChain(manifest, routeId)
      .map((r) => metaOutputs[path.relative(root, fileOf(r.module))]?.entryPoint)
      .filter((entry): entry is string => Boolean(entry));
    const seen = new Set<string>(starts);
    const queue = [...starts];
    const importers = new Set<string>();
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const edge of metaInputs[current]?.imports ?? []) {
        if (edge.external || edge.kind === "dynamic-import") continue;
        if (packageOfInput(edge.path) === pkg && !current.includes("node_modules/")) importers.add(current);
        if (!seen.has(edge.path)) {
          seen.add(edge.path);
          queue.push(edge.path);
        }
      }
    }
    return [...importers].sort();
  };

  return {
    manifestFile,
    manifest,
    builtAt: statSync(manifestFile).mtime,
    detection: packagesByFile ? "metafile" : "content",
    chunk,
    importersOf,
  };
}

/** The route and its ancestors, root first. */
export function routeChain(manifest: RemixManifest, routeId: string): ManifestRoute[] {
  const chain: ManifestRoute[] = [];
  const seen = new Set<string>();
  let current: ManifestRoute | undefined = manifest.routes[routeId];
  if (!current) throw new Error(`route ${routeId} is not in the manifest`);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    chain.unshift(current);
    current = current.parentId ? manifest.routes[current.parentId] : undefined;
  }
  return chain;
}

/** The JS URLs a first visit to the route loads, deduplicated, in load order. */
export function firstVisitScripts(manifest: RemixManifest, routeId: string): string[] {
  const urls = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (const route of routeChain(manifest, routeId)) {
    urls.add(route.module);
    for (const url of route.imports ?? []) urls.add(url);
  }
  return [...urls];
}

export interface RouteBundle {
  routeId: string;
  chunks: ChunkInfo[];
  rawBytes: number;
  gzipBytes: number;
  gzipKb: number;
  budget: Budget;
  /** More bytes or more files than the route's budget. */
  overBudget: boolean;
  /** Watched libraries loaded up front, with the chunks that hold them. */
  libraries: Partial<Record<WatchedLibrary, string[]>>;
  /** Watched libraries loaded up front that this route has no use for. */
  unexpectedLibraries: WatchedLibrary[];
}

export function measureRoute(build: ClientBuild, routeId: string): RouteBundle {
  const chunks = firstVisitScripts(build.manifest, routeId).map((url) => build.chunk(url));
  const gzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  const libraries: Partial<Record<WatchedLibrary, string[]>> = {};
  for (const chunk of chunks) {
    for (const lib of chunk.libraries) (libraries[lib] ??= []).push(chunk.url);
  }
  const allowed = allowedLibraries(routeId);
  const budget = routeBudget(routeId);
  return {
    routeId,
    chunks,
    rawBytes: chunks.reduce((sum, chunk) => sum + chunk.rawBytes, 0),
    gzipBytes,
    gzipKb: gzipBytes / KB,
    budget,
    overBudget: gzipBytes > budget.kb * KB || chunks.length > budget.files,
    libraries,
    unexpectedLibraries: (Object.keys(libraries) as WatchedLibrary[]).filter((lib) => !allowed.has(lib)),
  };
}

/** The storefront routes present in this build: the fixed list, then checkout routes. */
export function storefrontRoutes(manifest: RemixManifest): string[] {
  const fixed = STOREFRONT_ROUTE_IDS.filter((id) => id in manifest.routes);
  const checkout = Object.keys(manifest.routes)
    .filter((id) => isCheckoutRoute(id))
    .sort();
  return [...fixed, ...checkout];
}

export function measureStorefront(build: ClientBuild): RouteBundle[] {
  return storefrontRoutes(build.manifest).map((id) => measureRoute(build, id));
}

/** The storefront route ids of the fixed list that this build does not have (yet). */
export function missingStorefrontRoutes(manifest: RemixManifest): string[] {
  return STOREFRONT_ROUTE_IDS.filter((id) => !(id in manifest.routes));
}

/** How a route stands against its budget: `ok`, or what it is over by. */
export function budgetMark(r: RouteBundle): string {
  if (!r.overBudget) return "ok";
  const over = [
    r.gzipKb > r.budget.kb ? `+${(r.gzipKb - r.budget.kb).toFixed(1)} KB` : "",
    r.chunks.length > r.budget.files ? `+${r.chunks.length - r.budget.files} files` : "",
  ].filter(Boolean);
  return `OVER (${over.join(", ")})`;
}

/** A plain-text table: route, files, raw KB, gzip KB, budget and mark, watched libraries. */
export function formatBundleTable(results: readonly RouteBundle[]): string {
  const rows = results.map((r) => [
    r.routeId,
    String(r.chunks.length),
    (r.rawBytes / KB).toFixed(1),
    r.gzipKb.toFixed(1),
    `${r.budget.kb} KB / ${r.budget.files}`,
    budgetMark(r),
    Object.keys(r.libraries).length === 0
      ? "-"
      : (Object.keys(r.libraries) as WatchedLibrary[])
          .map((lib) => (r.unexpectedLibraries.includes(lib) ? `${lib} (NOT ALLOWED)` : lib))
          .join(", "),
  ]);
  const header = ["route", "files", "raw KB", "gzip KB", "budget", "within", "payment/maps/carousel libs"];
  return formatTable(header, rows, [false, true, true, true, true, false, false]);
}

/** The framework every route needs; not worth pointing at when a route is over budget. */
export const FRAMEWORK_PACKAGE = /^(react|react-dom|scheduler|turbo-stream|react-router|react-router-dom|@remix-run\/.*)$/;

export interface HeavyPackage {
  pkg: string;
  gzipKb: number;
  /** App modules that import it (metafile only). */
  importers: string[];
}

/**
 * What makes a route heavy: the biggest non-framework packages it loads up
 * front, and the app modules that pull each one in.
 */
export function heavyPackages(build: ClientBuild, result: RouteBundle, minKb = 5): HeavyPackage[] {
  const bytesByPackage = new Map<string, number>();
  for (const chunk of result.chunks) {
    const others = chunk.packages.filter((pkg) => !FRAMEWORK_PACKAGE.test(pkg));
    if (others.length === 0) continue;
    // A chunk's bytes are split evenly among its packages (big libraries usually get a chunk of their own).
    for (const pkg of others) bytesByPackage.set(pkg, (bytesByPackage.get(pkg) ?? 0) + chunk.gzipBytes / chunk.packages.length);
  }
  return [...bytesByPackage.entries()]
    .filter(([, bytes]) => bytes >= minKb * KB)
    .sort((a, b) => b[1] - a[1])
    .map(([pkg, bytes]) => ({ pkg, gzipKb: bytes / KB, importers: build.importersOf(result.routeId, pkg) }));
}

export function formatHeavyPackage(heavy: HeavyPackage): string {
  const via = heavy.importers.length > 0 ? ` imported by ${heavy.importers.join(", ")}` : "";
  return `${heavy.pkg} ~${heavy.gzipKb.toFixed(1)} KB gz${via}`;
}

/** Largest chunks of a route, for explaining an over-budget result. */
export function describeLargestChunks(result: RouteBundle, limit = 3): string {
  return [...result.chunks]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, limit)
    .map((chunk) => {
      const pkgs = chunk.packages.length > 0 ? ` [${chunk.packages.join(", ")}]` : "";
      return `${chunk.url} ${(chunk.gzipBytes / KB).toFixed(1)} KB gz${pkgs}`;
    })
    .join("; ");
}

export function formatTable(header: readonly string[], rows: readonly string[][], rightAlign: readonly boolean[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (rightAlign[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (rightAlign[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}
