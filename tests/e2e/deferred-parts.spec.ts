import { expect, test } from "./fixtures";
import { footerSignup } from "./support/newsletter";

/**
 * Parts drawn by the server whose script waits until they are near the screen
 * (components/deferred.tsx) keep waiting after Remix's route discovery has
 * added the routes the page links to (ADR 017: without the patch, that update
 * redrew the page and loaded every deferred part at once), and the page's
 * links still navigate without a full load once discovery is done.
 */
test.describe("deferred parts after route discovery", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "script loading, JavaScript project only");

  test("the footer's signup loads its script when scrolled near, not when /__manifest answers", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
    await page.goto("/product/blaze-3159840");
    expect((await discovered).status()).toBe(200);
    await page.waitForLoadState("networkidle");

    const signup = page.locator('footer [data-deferred="newsletter-signup"]');
    await expect(signup).toHaveCount(1);
    await expect(signup, "still as the server drew it").not.toHaveAttribute("data-hydrated");
    expect(scripts.filter((path) => path.includes("NewsletterSignup"))).toEqual([]);

    await footerSignup(page).scrollIntoViewIfNeeded();
    await expect(signup).toHaveAttribute("data-hydrated", "");
    expect(scripts.filter((path) => path.includes("NewsletterSignup"))).toHaveLength(1);
  });

  test("a link whose route was discovered navigates in the page, without a document request", async ({ page }) => {
    const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
    await page.goto("/product/blaze-3159840");
    await discovered;
    await page.waitForLoadState("networkidle");

    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    await page.getByRole("link", { name: "Check Order Status" }).first().click();
    await expect(page).toHaveURL(/\/order-status$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(documents).toEqual([]);
  });

  test("a product card opens its page in the page too, without a document request", async ({ page }) => {
    await page.goto("/products/all/all");
    await page.waitForLoadState("networkidle");
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    const link = page.locator(".product-card__link").first();
    const href = await link.getAttribute("href");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(documents).toEqual([]);
  });
});
