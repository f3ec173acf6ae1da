import { expect, test } from "@playwright/test";
import {
  BUDGET_KB,
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
 * DEVELOPERS: "Every storefront route ships at most 140 KB of gzipped script;
 * payment, maps and carousel libraries load only on the routes that use them"
 * (since lowered to BUDGET_KB).
 * A size check on the build the Playwright config made before the tests (no
 * timing): it reads public/build's manifest and sums what a first visit to each
 * route loads (scripts/lib/bundle-size.ts; `npm run bench` prints the same table).
 */
test.describe("script budget", () => {
  // The build is the same for both projects: check it once.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "build check, run in the JavaScript project only");

  test(`every storefront route ships at most ${BUDGET_KB} KB of gzipped script`, async () => {
    const build = loadClientBuild();
    const results = measureStorefront(build);
    await test.info().attach("first-visit-script.txt", { body: formatBundleTable(results), contentType: "text/plain" });

    // The list is read from the manifest; an empty one would pass anything.
    expect(results.map((r) => r.routeId)).toEqual(expect.arrayContaining(["root", "routes/_index"]));
    const over = results
      .filter((r) => r.overBudget)
      .map((r) => {
        const heavy = heavyPackages(build, r).map(formatHeavyPackage);
        return `${r.routeId}: ${r.gzipKb.toFixed(1)} KB gzipped; ${heavy.length > 0 ? heavy.join("; ") : `largest: ${describeLargestChunks(r)}`}`;
      });
    expect(over, `over ${BUDGET_KB} KB:\n${formatBundleTable(results)}`).toEqual([]);
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
