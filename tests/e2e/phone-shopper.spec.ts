import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The store as a shopper on a phone (390x844) and a desktop (1280x800) meets it:
 * the small things that read wrong, with script on and off.
 */
const PHONE = { width: 390, height: 844 };

/** A grill sold at a price over $49 (free shipping), used wherever a cart needs a line. */
const GRILL = "/product/alfresco-2911906";

async function addToCart(page: Page, path: string) {
  await page.goto(path);
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toBeVisible();
}

test.describe("the small things", () => {
  test("every page has exactly one top heading, the home page too", async ({ page }) => {
    for (const path of ["/", "/products/all/all", GRILL, "/finding/grill", "/cart", "/checkout", "/contact", "/order-status", "/nope"]) {
      await page.goto(path);
      await expect(page.locator("h1"), path).toHaveCount(1);
    }
  });

  test("brands are spelled as their makers spell them: AOG, not Aog", async ({ page }) => {
    await page.goto("/products/aog/all");
    await expect(page.getByRole("option", { name: "AOG", exact: true })).toHaveCount(1);
    await expect(page.getByText("Aog", { exact: true })).toHaveCount(0);
    await page.getByRole("article").first().getByRole("link").click();
    await expect(page.getByRole("link", { name: "AOG", exact: true }).first()).toHaveAttribute("href", "/products/aog/all");
  });

  test("the tax line reads TAX in the cart and at checkout", async ({ page }) => {
    await addToCart(page, GRILL);
    for (const path of ["/cart", "/checkout"]) {
      await page.goto(path);
      await expect(page.locator("dt").getByText("TAX", { exact: true }), path).toHaveCount(1);
      await expect(page.getByText(/^tax$/i).filter({ hasNotText: "TAX" }), path).toHaveCount(0);
    }
  });

  test("each payment button says what it does", async ({ page, checkout }) => {
    await addToCart(page, GRILL);
    await page.goto("/checkout");
    await checkout.fillCustomer({ email: "describe@example.com" });
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    const card = page.getByRole("button", { name: "Credit or debit card" });
    const hosted = page.getByRole("button", { name: "Card on Authorize.Net's secure payment form" });
    await expect(card).toHaveAccessibleDescription(/Stripe/);
    await expect(hosted).toHaveAccessibleDescription(/Authorize\.Net's secure payment page/);
    await expect(page.getByText(/Pay by card on Authorize\.Net's secure payment page/)).toBeVisible();
  });

  test("the staff dashboard shows each order's total, fits a phone and links back to the store", async ({ page, staff, checkout }) => {
    await page.goto("/custom-product-checkout?quantity=1");
    await checkout.fillCustomer({ email: `dashboard-${test.info().project.name}@example.com` });
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.getByRole("button", { name: "Credit or debit card" }).click();
    await page.getByRole("button", { name: "Approve payment" }).click();
    const orderId = (await page.getByTestId("order-id").textContent())!.trim();

    await page.setViewportSize(PHONE);
    await staff.open(`/dashboard?q=${orderId}`);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`);
    await expect(row.getByTestId("order-total")).toHaveText(/^\$\d+\.\d\d$/);
    // Nothing is cut off: every cell of the row is inside the screen, and the page does not scroll sideways.
    for (const cell of await row.locator("th, td").all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole("link", { name: "Back to the store" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
