import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { footerSignup } from "./support/newsletter";

/**
 * Parts drawn by the server whose script waits until they are near the screen
 * (components/deferred.tsx) keep waiting once the page has hydrated: the page
 * asks for no route discovery at load (decision 026: routes patched in then
 * redraw the page and load every deferred part at once), and its links still
 * navigate without a full load, finding their route when they are opened.
 */
test.describe("deferred parts and route discovery", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "script loading, JavaScript project only");

  test("the footer's signup loads its script when scrolled near, and the page asks for no route discovery", async ({ page }) => {
    const scripts: string[] = [];
    const discoveries: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === "script") scripts.push(url.pathname);
      if (url.pathname === "/__manifest") discoveries.push(url.search);
    });
    await page.goto("/product/blaze-3159840");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.waitForLoadState("networkidle");
    expect(discoveries).toEqual([]);

    const signup = page.locator('footer [data-deferred="newsletter-signup"]');
    await expect(signup).toHaveCount(1);
    await expect(signup, "still as the server drew it").not.toHaveAttribute("data-hydrated");
    expect(scripts.filter((path) => path.includes("NewsletterSignup"))).toEqual([]);

    await footerSignup(page).scrollIntoViewIfNeeded();
    await expect(signup).toHaveAttribute("data-hydrated", "");
    expect(scripts.filter((path) => path.includes("NewsletterSignup"))).toHaveLength(1);
  });

  test("a link navigates in the page, its route found as it is opened, without a document request", async ({ page }) => {
    await page.goto("/product/blaze-3159840");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.waitForLoadState("networkidle");
    const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");

    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    await page.getByRole("link", { name: "Check Order Status" }).first().click();
    expect((await discovered).status()).toBe(200);
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

/**
 * What the server writes from its markup cache (decision 031: cards, menus, the drawer, the footer's
 * reviews, specifications) is the markup React would draw, so React hydrates it without a mismatch:
 * a mismatch in a production build shows as a recoverable error on the console (React's #418, #423,
 * #425) and a whole page drawn again in the browser. Each page is opened twice, the second time
 * written from the cache, and scrolled down so its deferred parts hydrate too.
 */
test.describe("kept markup", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "hydration, JavaScript project only");

  const watchReactErrors = (page: Page) => {
    const errors: string[] = [];
    const fromReact = (text: string) => /react|hydrat|#41[89]|#42[35]/i.test(text);
    page.on("console", (message) => {
      if (message.type() === "error" && fromReact(message.text())) errors.push(message.text());
    });
    page.on("pageerror", (error) => fromReact(error.message) && errors.push(error.message));
    return errors;
  };

  test("the list hydrates from the cache without a mismatch, and its cards still add to the cart", async ({ page }) => {
    const errors = watchReactErrors(page);
    await page.goto("/products/all/all");
    await page.goto("/products/all/all");
    await page.waitForLoadState("networkidle");
    const card = page
      .locator(".product-card")
      .filter({ has: page.getByRole("button", { name: "ADD TO CART" }) })
      .first();
    await card.getByRole("button", { name: "ADD TO CART" }).click();
    await expect(card.getByRole("status")).toHaveText(/Added to cart/);
    await page.locator("footer .testimonial-block").scrollIntoViewIfNeeded();
    await expect(page.locator("footer [data-deferred]").first()).toHaveAttribute("data-hydrated", "");
    expect(errors).toEqual([]);
  });

  test("the product page, its rows of cards and the footer's reviews hydrate from the cache without a mismatch", async ({ page }) => {
    const errors = watchReactErrors(page);
    await page.goto("/product/blaze-3159840");
    await page.goto("/product/blaze-3159840");
    await page.waitForLoadState("networkidle");
    for (const row of await page.locator("section.product-carousel").all()) await row.scrollIntoViewIfNeeded();
    await page.locator("footer .testimonial-block").scrollIntoViewIfNeeded();
    await expect(page.locator("footer [data-deferred]").first()).toHaveAttribute("data-hydrated", "");
    await expect(page.locator("div.deferred:has(section.product-carousel)").first()).toHaveAttribute("data-hydrated", "");
    expect(errors).toEqual([]);
  });
});
