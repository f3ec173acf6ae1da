/**
 * Browser figures: Lighthouse (npm `lighthouse`, its default mobile preset:
 * a Moto G Power-class phone with simulated slow 4G and 4x CPU slowdown) in
 * the system Chromium, median of N runs per page.
 */
import { launch } from "chrome-launcher";
import { existsSync } from "node:fs";
import { stats, type Stats } from "./bench-http";

export interface BrowserPage {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

export interface LighthouseRow {
  name: string;
  path: string;
  runs: number;
  score: Stats;
  lcpMs: Stats;
  tbtMs: Stats;
  cls: Stats;
  /** Everything transferred during load (bytes). */
  totalBytes: Stats;
  /** Script the page itself asks for (its first load, from its HTML or its inline starter): bytes transferred. */
  scriptBytes: Stats;
  /** Script files the page itself asks for. */
  scriptFiles: Stats;
  /** Script the page's own script loaded while Lighthouse watched: parts loaded on idle or near the screen. */
  laterScriptBytes: Stats;
  laterScriptFiles: Stats;
  imageBytes: Stats;
  /** Everything but pictures: what a phone pays before it can show the page. */
  beforePicturesBytes: Stats;
  /** The LCP element of the median run, as Lighthouse names it. */
  lcpElement: string;
}

interface Audit {
  numericValue?: number;
  details?: { items?: Array<Record<string, unknown>> };
}

interface DevtoolsEvent {
  method: string;
  params: { type?: string; request?: { url?: string }; initiator?: Initiator };
}

interface LighthouseResult {
  lhr: {
    categories: { performance: { score: number | null } };
    audits: Record<string, Audit | undefined>;
    runtimeError?: { code: string; message: string };
  };
  artifacts?: { DevtoolsLog?: DevtoolsEvent[] };
}

type LighthouseFn = (url: string, flags: Record<string, unknown>, config?: unknown) => Promise<LighthouseResult | undefined>;

export function chromePath(): string {
  return process.env.CHROME_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : "");
}

function resourceSummary(audit: Audit | undefined, type: string, field: "transferSize" | "requestCount"): number {
  const item = audit?.details?.items?.find((row) => row.resourceType === type);
  return Number(item?.[field] ?? 0);
}

/**
 * Script files split by who asked for them: the page itself (its HTML, or its inline starter script,
 * which preloads the first-load modules after the first paint: decision 026), the first load a page
 * costs; or the store's own modules (`import()` of a part that loads on idle, near the screen or on use).
 */
function scriptByInitiator(result: LighthouseResult): { first: { bytes: number; files: number }; later: { bytes: number; files: number } } {
  const askedByModules = new Set<string>();
  for (const event of result.artifacts?.DevtoolsLog ?? []) {
    const { type, request, initiator } = event.params;
    if (event.method === "Network.requestWillBeSent" && type === "Script" && request?.url && initiatedByBuiltModule(initiator))
      askedByModules.add(request.url);
  }
  const first = { bytes: 0, files: 0 };
  const later = { bytes: 0, files: 0 };
  for (const item of result.lhr.audits["network-requests"]?.details?.items ?? []) {
    if (item.resourceType !== "Script") continue;
    const side = askedByModules.has(String(item.url)) ? later : first;
    side.bytes += Number(item.transferSize ?? 0);
    side.files += 1;
  }
  return { first, later };
}

interface Initiator {
  type?: string;
  url?: string;
  stack?: { callFrames: Array<{ url?: string }>; parent?: Initiator["stack"] };
}

/** A request made by code of the build (`/build/...`): its URL or a frame of its stack is one of the store's modules. */
function initiatedByBuiltModule(initiator: Initiator | undefined): boolean {
  if (initiator?.type !== "script") return false;
  const urls = [initiator.url];
  for (let stack = initiator.stack; stack; stack = stack.parent) urls.push(...stack.callFrames.map((frame) => frame.url));
  return urls.some((url) => url?.includes("/build/"));
}

/** The LCP element's selector, from the LCP breakdown insight (Lighthouse 13). */
function lcpElement(audit: Audit | undefined): string {
  for (const item of audit?.details?.items ?? []) {
    const node = item as { type?: string; selector?: string; snippet?: string };
    if (node.type === "node") return node.selector ?? node.snippet?.slice(0, 100) ?? "";
  }
  return "";
}

export async function measurePages(
  origin: string,
  pages: readonly BrowserPage[],
  runs: number,
  progress: (line: string) => void,
  options: { trustAnyCertificate?: boolean } = {},
): Promise<LighthouseRow[]> {
  const lighthouse = ((await import("lighthouse")) as unknown as { default: LighthouseFn }).default;
  const chrome = await launch({
    chromePath: chromePath() || undefined,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      // The production proxy's certificate comes from Caddy's own local CA, which this Chromium does not know.
      ...(options.trustAnyCertificate ? ["--ignore-certificate-errors"] : []),
    ],
  });
  const rows: LighthouseRow[] = [];
  try {
    for (const page of pages) {
      const samples: Array<{
        score: number;
        lcp: number;
        tbt: number;
        cls: number;
        total: number;
        script: number;
        scriptFiles: number;
        laterScript: number;
        laterScriptFiles: number;
        image: number;
        element: string;
      }> = [];
      for (let i = 0, failures = 0; i < runs; i++) {
        const result = await lighthouse(`${origin}${page.path}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance"],
          extraHeaders: page.headers,
          // Every run a first visit: nothing cached from the previous run.
          disableStorageReset: false,
          // The full-page screenshot resizes the viewport, which would scroll every lazy part into view.
          disableFullPageScreenshot: true,
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
        // A run Lighthouse itself could not finish (no score) is run again, twice at most, and said so.
        if (result.lhr.categories.performance.score === null && failures < 2) {
          failures += 1;
          i -= 1;
          progress(`  ${page.name}: a run gave no score (${result.lhr.runtimeError?.code ?? "metrics missing"}); running it again`);
          continue;
        }
        const audits = result.lhr.audits;
        const summary = audits["resource-summary"];
        const total = resourceSummary(summary, "total", "transferSize");
        const image = resourceSummary(summary, "image", "transferSize");
        const scripts = scriptByInitiator(result);
        samples.push({
          score: Math.round((result.lhr.categories.performance.score ?? 0) * 100),
          lcp: audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
          tbt: audits["total-blocking-time"]?.numericValue ?? Number.NaN,
          cls: audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
          total,
          script: scripts.first.bytes,
          scriptFiles: scripts.first.files,
          laterScript: scripts.later.bytes,
          laterScriptFiles: scripts.later.files,
          image,
          element: lcpElement(audits["lcp-breakdown-insight"]),
        });
      }
      const byScore = [...samples].sort((a, b) => a.score - b.score);
      const row: LighthouseRow = {
        name: page.name,
        path: page.path,
        runs,
        score: stats(samples.map((s) => s.score)),
        lcpMs: stats(samples.map((s) => s.lcp)),
        tbtMs: stats(samples.map((s) => s.tbt)),
        cls: stats(samples.map((s) => s.cls)),
        totalBytes: stats(samples.map((s) => s.total)),
        scriptBytes: stats(samples.map((s) => s.script)),
        scriptFiles: stats(samples.map((s) => s.scriptFiles)),
        laterScriptBytes: stats(samples.map((s) => s.laterScript)),
        laterScriptFiles: stats(samples.map((s) => s.laterScriptFiles)),
        imageBytes: stats(samples.map((s) => s.image)),
        beforePicturesBytes: stats(samples.map((s) => s.total - s.image)),
        lcpElement: byScore[Math.floor(byScore.length / 2)]?.element ?? "",
      };
      rows.push(row);
      progress(
        `  ${page.name}: score ${row.score.median}, LCP ${(row.lcpMs.median / 1000).toFixed(2)} s, TBT ${row.tbtMs.median.toFixed(0)} ms, ` +
          `CLS ${row.cls.median.toFixed(3)}, script ${row.scriptBytes.median} B in ${row.scriptFiles.median} files at first load ` +
          `(${row.laterScriptBytes.median} B in ${row.laterScriptFiles.median} later), LCP element ${row.lcpElement}`,
      );
    }
  } finally {
    chrome.kill();
  }
  return rows;
}
