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
  scriptBytes: Stats;
  /** Script files requested during load. */
  scriptFiles: Stats;
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

interface LighthouseResult {
  lhr: { categories: { performance: { score: number | null } }; audits: Record<string, Audit | undefined> };
}

type LighthouseFn = (url: string, flags: Record<string, unknown>, config?: unknown) => Promise<LighthouseResult | undefined>;

export function chromePath(): string {
  return process.env.CHROME_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : "");
}

function resourceSummary(audit: Audit | undefined, type: string, field: "transferSize" | "requestCount"): number {
  const item = audit?.details?.items?.find((row) => row.resourceType === type);
  return Number(item?.[field] ?? 0);
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
        image: number;
        element: string;
      }> = [];
      for (let i = 0; i < runs; i++) {
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
        const audits = result.lhr.audits;
        const summary = audits["resource-summary"];
        const total = resourceSummary(summary, "total", "transferSize");
        const image = resourceSummary(summary, "image", "transferSize");
        samples.push({
          score: Math.round((result.lhr.categories.performance.score ?? 0) * 100),
          lcp: audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
          tbt: audits["total-blocking-time"]?.numericValue ?? Number.NaN,
          cls: audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
          total,
          script: resourceSummary(summary, "script", "transferSize"),
          scriptFiles: resourceSummary(summary, "script", "requestCount"),
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
        imageBytes: stats(samples.map((s) => s.image)),
        beforePicturesBytes: stats(samples.map((s) => s.total - s.image)),
        lcpElement: byScore[Math.floor(byScore.length / 2)]?.element ?? "",
      };
      rows.push(row);
      progress(
        `  ${page.name}: score ${row.score.median}, LCP ${(row.lcpMs.median / 1000).toFixed(2)} s, TBT ${row.tbtMs.median.toFixed(0)} ms, ` +
          `CLS ${row.cls.median.toFixed(3)}, script ${row.scriptBytes.median} B in ${row.scriptFiles.median} files, LCP element ${row.lcpElement}`,
      );
    }
  } finally {
    chrome.kill();
  }
  return rows;
}
