import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";

/**
 * The buying guides: the cutout finder, compare, fits-my-grill and
 * the sizing helpers, with script on and off. `SAVE_SCREENSHOTS=1` also writes
 * the README's pictures to docs/screenshots/.
 */

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
    if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
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

test.describe("compare", () => {
  const keys = ["blaze-2973501", "blaze-2973507", "blaze-3159831", "blaze-3159834"];
  const fifth = "blaze-3027378";

  async function pressCompare(page: Page, key: string, javaScriptEnabled: boolean) {
    await page.goto(`/product/${key}`);
    // With script, wait for hydration so the button posts in the background.
    if (javaScriptEnabled) await expect(page.locator(".product-detail__buy .compare-form input[name=mode]")).toHaveValue("fetch");
    await page.locator(".product-detail__buy").getByRole("button", { name: "Compare", exact: true }).click();
  }

  test("four products side by side, differences marked and filterable, a fifth asks which to replace", async ({
    page,
    javaScriptEnabled,
  }) => {
    for (const [index, key] of keys.entries()) {
      await pressCompare(page, key, javaScriptEnabled);
      if (javaScriptEnabled) await expect(page.getByRole("status").filter({ hasText: `In comparison (${index + 1} of 4)` })).toBeVisible();
      else await expect(page).toHaveURL(new RegExp(`/compare\\?items=${keys.slice(0, index + 1).join(",")}$`));
    }
    await page.goto("/compare");
    await expect(page).toHaveURL(new RegExp(`/compare\\?items=${keys.join(",")}$`));
    const table = page.getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveCount(4);
    await expect(table.getByRole("rowheader", { name: /Fuel Type\s*Differs/ })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: "Price" })).toBeVisible();
    await expect(table.getByRole("button", { name: "ADD TO CART" })).toHaveCount(4);
    await expect(table.getByText(/As low as/).first()).toBeVisible();
    const allRows = await table.getByRole("row").count();

    await page.getByRole("link", { name: "Show only differences" }).click();
    await expect(page).toHaveURL(/only=differences/);
    await expect(table.getByRole("rowheader", { name: /Fuel Type/ })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: /^Cutout Width/ })).toHaveCount(0);
    expect(await table.getByRole("row").count()).toBeLessThan(allRows);
    if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
    if (process.env.SAVE_SCREENSHOTS) {
      await page.goto(`/compare?items=${keys.join(",")}`);
      await page.getByRole("table").scrollIntoViewIfNeeded();
      await page.screenshot({ path: "docs/screenshots/compare.png" });
    }

    await pressCompare(page, fifth, javaScriptEnabled);
    if (javaScriptEnabled) await page.getByRole("link", { name: "Choose one to replace" }).click();
    await expect(page).toHaveURL(new RegExp(`add=${fifth}`));
    await expect(page.getByRole("heading", { name: /Which one should .* replace\?/ })).toBeVisible();
    await page.getByRole("button", { name: /^Replace Blaze Premium LTE 32-Inch 4-Burner Built-In Propane/ }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?items=${[fifth, ...keys.slice(1)].join(",")}$`));
    await expect(table.getByRole("columnheader", { name: /Marine Grade/ })).toBeVisible();

    await table
      .getByRole("button", { name: /^Remove/ })
      .first()
      .click();
    await expect(table.getByRole("columnheader")).toHaveCount(3);
  });

  test("a shared address shows its products; on a phone the names column stays while products scroll", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/compare?items=${keys.slice(0, 3).join(",")}`);
    const firstColumn = page.getByRole("rowheader", { name: "Price" });
    await expect(firstColumn).toHaveCSS("position", "sticky");
    const scroller = page.locator(".compare-table__scroll");
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    const bodyOverflows = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(bodyOverflows).toBe(false);
  });

  test("product cards carry a Compare button beside, not inside, the product link", async ({ page, javaScriptEnabled }) => {
    await page.goto("/products/all/Built-In%20Gas%20Grills");
    const card = page.locator(".product-card").first();
    await expect(card.getByRole("button", { name: "Compare", exact: true })).toBeVisible();
    await expect(card.locator("a form, a button")).toHaveCount(0);
    // Without script the card's form posts to /compare; with it the list posts in the background and the card says so.
    // Hydrated: the list's filter button hides (its select submits itself).
    if (javaScriptEnabled) await expect(page.getByRole("button", { name: "Show", exact: true }).first()).toHaveClass(/visually-hidden/);
    await card.getByRole("button", { name: "Compare", exact: true }).click();
    if (javaScriptEnabled) {
      await expect(card.getByRole("status")).toContainText("In comparison (1 of 4)");
      await expect(page).toHaveURL(/\/products\/all\/Built-In%20Gas%20Grills$/);
    } else {
      await expect(page).toHaveURL(/\/compare\?items=/);
    }
  });
});

test.describe("fits my grill", () => {
  test("a grill's page lists its accessories, and an accessory's page the grills it fits", async ({ page }) => {
    await page.goto("/product/american_made_grills-3080621");
    const accessories = page.getByRole("region", { name: "Accessories for this grill" });
    await expect(accessories.getByRole("link", { name: /36-Inch Encore\/Muscle Built-In Grill Cover/ }).first()).toBeAttached();
    await expect(accessories.getByRole("link", { name: /54-Inch Encore\/Muscle Built-In Grill Cover/ })).toHaveCount(0);

    await page.goto("/product/american_made_grills-3084347");
    const grills = page.getByRole("region", { name: "Fits these grills" });
    await expect(grills.getByRole("link", { name: /Encore 36-Inch Hybrid Grill - Natural Gas/ }).first()).toBeAttached();
    await expect(grills.getByRole("link", { name: /54-Inch/ })).toHaveCount(0);
  });
});

test.describe("sizing helpers", () => {
  test("the heater helper shows the rule in words and the heaters that meet it", async ({ page, javaScriptEnabled }) => {
    await page.goto("/products/all/Patio%20Heaters");
    await page.getByRole("link", { name: "Patio heater size helper" }).click();
    await page.getByLabel("Area (sq ft)").fill("400");
    await page.getByLabel("Roof").selectOption("covered");
    await page.getByRole("button", { name: "Size my heater" }).click();
    await expect(page).toHaveURL(/\/heater-helper\?area=400&.*covered=covered&climate=moderate/);
    await expect(page.getByRole("heading", { level: 2, name: "Your patio needs about 8,000 W or 28,000 BTU" })).toBeVisible();
    await expect(page.getByText(/400 sq ft × 20 W per sq ft for a covered patio/)).toBeVisible();
    await expect(page.getByRole("list", { name: "Heaters for your patio" }).getByRole("listitem").first()).toContainText("You need");
    if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
  });

  test("the grill helper recommends an area and burger count and lists grills", async ({ page, javaScriptEnabled }) => {
    await page.goto("/grill-helper");
    await page.getByLabel("People you usually cook for").fill("6");
    await page.getByLabel("How often you host").selectOption("weekly");
    await page.getByRole("button", { name: "Size my grill" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "You need at least 720 sq in, room for 9 burgers" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Grills that meet it" }).getByRole("listitem").first()).toContainText("Main grilling area");
    if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

    await page.goto("/grill-helper?people=lots");
    await expect(page.getByLabel("People you usually cook for")).toHaveAttribute("aria-invalid", "true");
  });

  test("both helpers are in the sitemap", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/heater-helper</loc>");
    expect(sitemap).toContain("/grill-helper</loc>");
  });
});
