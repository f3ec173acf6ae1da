import { expect, test } from "./fixtures";
import {
  BUDGET,
  BUDGET_EXCEPTIONS,
  budgetMark,
  describeLargestChunks,
  formatBundleTable,
  formatHeavyPackage,
  heavyPackages,
  loadClientBuild,
  measureStorefront,
  type RouteBundle,
} from "../../scripts/lib/bundle-size";
import { findServerCodeInBrowser, formatFindings } from "../../scripts/lib/server-code-in-browser";

/**
 * A slow phone pays for every byte and every request of a first visit: every storefront route loads
 * at most BUDGET (100 KB of gzipped script in at most 15 files; chunks loaded later by `import()` are
 * not counted), and the routes of BUDGET_EXCEPTIONS no more than they load today; payment, maps and
 * carousel libraries load only on the routes that use them.
 * A size check on the build the Playwright config made before the tests (no
 * timing): it reads public/build's manifest and sums what a first visit to each
 * route loads (scripts/lib/bundle-size.ts; `npm run bench` prints the same table).
 */
test.describe("script budget", () => {
  // The build is the same for both projects: check it once.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "build check, run in the JavaScript project only");

  test(`every storefront route loads at most ${BUDGET.kb} KB of gzipped script in at most ${BUDGET.files} files`, async () => {
    const build = loadClientBuild();
    const results = measureStorefront(build);
    await test.info().attach("first-visit-script.txt", { body: formatBundleTable(results), contentType: "text/plain" });

    // The list is read from the manifest; an empty one would pass anything.
    expect(results.map((r) => r.routeId)).toEqual(expect.arrayContaining(["root", "routes/_index"]));
    const over = results
      .filter((r) => r.overBudget)
      .map((r) => {
        const heavy = heavyPackages(build, r).map(formatHeavyPackage);
        return `${r.routeId}: ${r.gzipKb.toFixed(1)} KB gzipped in ${r.chunks.length} files, ${budgetMark(r)}; ${heavy.length > 0 ? heavy.join("; ") : `largest: ${describeLargestChunks(r)}`}`;
      });
    expect(over, `over budget:\n${formatBundleTable(results)}`).toEqual([]);
  });

  test("a route that fits the budget leaves the list of exceptions", () => {
    const results = measureStorefront(loadClientBuild());
    const fitting = results
      .filter((r) => r.routeId in BUDGET_EXCEPTIONS && r.gzipKb <= BUDGET.kb && r.chunks.length <= BUDGET.files)
      .map((r) => r.routeId);
    expect(fitting, "these routes now fit BUDGET: remove them from BUDGET_EXCEPTIONS").toEqual([]);
  });

  test("payment, maps and carousel libraries load only on the routes that use them", async () => {
    // The metafile names each chunk's packages exactly; string markers in the
    // chunks are a second opinion that also works without it. Both must agree
    // that no route loads a library it has no use for.
    const byMetafile = measureStorefront(loadClientBuild());
    const byContent = measureStorefront(loadClientBuild({ detection: "content" }));
    const describe = (results: RouteBundle[]) =>
      results.flatMap((r) =>
        r.unexpectedLibraries.map((lib) => `${r.routeId} loads ${lib} up front (${(r.libraries[lib] ?? []).join(", ")})`),
      );
    await test.info().attach("libraries.txt", { body: formatBundleTable(byMetafile), contentType: "text/plain" });
    expect(describe(byMetafile)).toEqual([]);
    expect(describe(byContent)).toEqual([]);
  });

  test("no browser chunk holds drizzle, postgres, pglite, zod, sharp or a *.server module (the drawings among them)", async () => {
    // Every file of public/build, dynamic-import chunks included (scripts/lib/server-code-in-browser.ts).
    const report = findServerCodeInBrowser();
    expect(report.files.length).toBeGreaterThan(10);
    expect(report.metafileUsed, "build/metafile.js.json should describe this build").toBe(true);
    expect(formatFindings(report.findings)).toEqual([]);
  });
});

/**
 * Chrome stops measuring the largest paint (LCP) at the shopper's first scroll, and took the 2 px a
 * scroll-snap row once moved at first layout for one: pages with a carousel reported no LCP at all,
 * to Lighthouse and to any field measure. Each page below must report one, at its first paint.
 */
test.describe("the page's largest paint", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "read with a PerformanceObserver, which needs script");

  for (const path of ["/", "/product/blaze-3159840", "/custom-product", "/products/all/all"]) {
    test(`${path} reports its largest paint, and no scroll row has moved before the shopper scrolls`, async ({ page }) => {
      await page.setViewportSize({ width: 412, height: 823 });
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { largestPaints: string[] }).largestPaints = seen;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) seen.push(entry.entryType);
        }).observe({ type: "largest-contentful-paint", buffered: true });
      });
      await page.goto(path, { waitUntil: "load" });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { largestPaints: string[] }).largestPaints.length))
        .toBeGreaterThan(0);
      const moved = await page.evaluate(() =>
        Array.from(document.querySelectorAll(".carousel__viewport, .scroll-row"), (row) => row.scrollLeft).filter((left) => left !== 0),
      );
      expect(moved).toEqual([]);
    });
  }
});

/**
 * The first paint and its largest image do not wait for, or share the connection with, the page's
 * script (decision 026): the HTML neither preloads nor runs a module; its inline starter preloads the
 * first-load modules and runs them once the browser has painted, and the page then hydrates.
 */
test.describe("the page's script", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the starter is a script");

  test("starts after the first paint, and the page then hydrates", async ({ page }) => {
    const response = await page.goto("/products/all/all", { waitUntil: "load" });
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    // Once hydrated, the filters navigate on change and their Show buttons step aside.
    await expect(page.locator(".filter-form").first().getByRole("button", { name: "Show", exact: true })).toHaveClass(/visually-hidden/);
    const { firstPaint, scriptStarts } = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName("first-paint")[0]?.startTime ?? Number.NaN,
      scriptStarts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.startsWith("/build/") && entry.name.endsWith(".js"))
        .map((entry) => entry.startTime),
    }));
    expect(firstPaint).toBeGreaterThan(0);
    expect(scriptStarts.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...scriptStarts)).toBeGreaterThanOrEqual(firstPaint);
  });
});
