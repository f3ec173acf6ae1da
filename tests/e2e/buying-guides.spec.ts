import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The buying guides (issue 13): the cutout finder, compare, fits-my-grill and
 * the sizing helpers, with script on and off. `SAVE_SCREENSHOTS=1` also writes
 * the README's pictures to docs/screenshots/.
 */

/** axe runs its script in the page, so it scans in the js-on project only. */
async function expectNoSeriousAxeViolations(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    ),
  ).toEqual([]);
}

test.describe("find by cutout", () => {
  test("a GET form lists the grills that fit an opening, snuggest first, with a bookmarkable address", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/products/all/Built-In%20Gas%20Grills");
    await page.getByRole("link", { name: "Find by cutout" }).click();
    await expect(page).toHaveURL(/\/fit$/);
    await expect(page.getByRole("heading", { level: 1, name: "Find by cutout" })).toBeVisible();

    await page.getByLabel("Width", { exact: true }).fill("30 3/4");
    await page.getByLabel("Depth", { exact: true }).fill("21 1/4");
    await page.getByLabel("Height (optional)").fill("10");
    await page.getByLabel("Fuel type").selectOption("Propane");
    await page.getByRole("button", { name: "Find what fits" }).click();

    await expect(page).toHaveURL(/\/fit\?width=30\+3%2F4&depth=21\+1%2F4&height=10&.*fuel=Propane/);
    const heading = page.getByRole("heading", { level: 2, name: /products? fits? a 30 3\/4 in × 21 1\/4 in × 10 in opening/ });
    await expect(heading).toBeVisible();
    const results = page.locator(".guide-result");
    await expect(results.first()).toBeVisible();
    await expect(results.first()).toContainText("Propane");
    await expect(page.getByRole("link", { name: /Blaze Premium LTE 32-Inch 4-Burner Built-In Propane/ }).first()).toBeVisible();

    // The result address is the bookmark: opening it again shows the same list.
    const url = page.url();
    await page.goto(url);
    await expect(heading).toBeVisible();
    await expectNoSeriousAxeViolations(page, javaScriptEnabled);
    if (process.env.SAVE_SCREENSHOTS) {
      await page.getByRole("heading", { level: 2 }).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: "docs/screenshots/fit.png" });
    }
  });

  test("explains a mistyped measurement, and a grill named by model number gives its cutout", async ({ page }) => {
    await page.goto("/fit?width=wide&depth=21");
    await expect(page.getByLabel("Width", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText(/Enter the width in inches, such as 30, 30.25 or 30 1\/4/)).toBeVisible();

    await page.goto("/fit");
    await page.getByLabel("Model number or name").fill("BLZ-4LTE2-LP");
    await page.getByRole("button", { name: "Find what fits" }).click();
    await expect(page.getByText(/Using the cutout of/)).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /fits? a 30 5\/8 in × 21 1\/4 in × 8 1\/2 in opening/ })).toBeVisible();
  });

  test("is in the sitemap", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/fit</loc>");
  });
});
