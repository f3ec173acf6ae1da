import type { Page } from "@playwright/test";
import { expect, test, thankYouOrderId } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";
import { uniqueEmail } from "./support/newsletter";

/**
 * Stock from outside (issue 49), script on and off: staff sell a product out on the stock desk; its page
 * says Out of stock, offers no way to buy it and offers "Notify me"; a shopper asks and confirms by the
 * emailed link; a CSV import (previewed, then applied) brings 2 back, which emails her once; the page
 * says "Only 2 left" and the cart refuses 3; a bought unit comes back when staff cancel the order.
 * Each project has a product of its own: both run at once against one store.
 */

const PRODUCT = { "js-on": "breeo-3160710", "js-off": "breeo-3160713" } as const;

async function setOnHand(page: Page, staff: { open(path: string): Promise<void> }, key: string, onHand: number, reason: string) {
  await staff.open(`/stock/${key}`);
  await page.getByLabel("On hand (units in the warehouse)").fill(String(onHand));
  await page.getByLabel("Reason").fill(reason);
  await page.getByRole("button", { name: "Set on hand" }).click();
  await expect(page.getByTestId("on-hand")).toHaveText(String(onHand));
}

async function outboxCount(page: Page, subject: string, email: string): Promise<number> {
  await page.goto("/dev/outbox");
  return page.locator(".outbox__item").filter({ hasText: subject }).filter({ hasText: email }).count();
}

test("sold out: no way to buy, Notify me confirmed by email, a CSV import brings it back and emails once, the cart refuses more than is left, a cancel restocks", async ({
  page,
  staff,
  checkout,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // a whole journey: the desk, the product page, the outbox twice, a CSV import, a purchase and its cancel
  const key = PRODUCT[testInfo.project.name as keyof typeof PRODUCT];
  const email = uniqueEmail(testInfo, "notify");

  await setOnHand(page, staff, key, 0, "e2e: sold out");
  await expect(page.getByTestId("movement").first()).toContainText("e2e: sold out");
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();

  // Out of stock: said on the page and in its JSON-LD, no ADD TO CART or BUY NOW, a Notify me form instead.
  await page.goto(`/product/${key}`);
  await expect(page.locator(".product-detail .stock-status")).toHaveText("Out of stock");
  const buying = page.locator(".product-detail__buy");
  await expect(buying.getByRole("button", { name: "ADD TO CART" })).toHaveCount(0);
  await expect(buying.getByRole("button", { name: "BUY NOW" })).toHaveCount(0);
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(jsonLd.join("\n")).toContain("https://schema.org/OutOfStock");
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
  // The comparison says so too, with no ADD TO CART.
  await page.goto(`/compare?items=${key},blaze-3159840`);
  await expect(page.locator(".compare-table__actions").first()).toContainText("Out of stock");
  await expect(
    page
      .locator(".compare-table__actions")
      .first()
      .getByRole("button", { name: /ADD TO CART/ }),
  ).toHaveCount(0);
  await page.goto(`/product/${key}`);
  const notify = page.getByRole("form", { name: `Notify me when ${title} is available` });
  await notify.getByLabel("Email me when it is back in stock").fill(email);
  await notify.getByRole("button", { name: "Notify me" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your inbox and confirm" })).toBeVisible();

  // Only the mailbox's owner can confirm: the link opens a page, its button confirms.
  const confirmation = `Confirm: email me when ${title} is back in stock`;
  await expect.poll(() => outboxCount(page, confirmation, email)).toBe(1);
  await page.locator(".outbox__item").filter({ hasText: confirmation }).filter({ hasText: email }).click();
  const confirmHref = await page.getByRole("link", { name: /\/notify-me\/confirm\?token=/ }).getAttribute("href");
  await page.goto(confirmHref!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("notify-me-outcome")).toHaveText("Thank you: we will email you once when it is back in stock.");

  // Back by CSV: the preview shows the change, nothing moves until Apply, then the count and its movement.
  await staff.open("/stock/import");
  await page.getByLabel("CSV file").setInputFiles({
    name: "recount.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`product_key,on_hand,reason\n${key},2,e2e: found two more\n`),
  });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  const change = page.getByRole("row").filter({ hasText: key });
  await expect(change.getByRole("cell").nth(1)).toHaveText("0");
  await expect(change.getByRole("cell").nth(2)).toHaveText("2");
  await page.getByRole("button", { name: "Apply 1 change" }).click();
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);
  await page.goto(`/stock/${key}`);
  await expect(page.getByTestId("on-hand")).toHaveText("2");
  await expect(page.getByTestId("movement").first()).toContainText("e2e: found two more");

  // The back-in-stock email, once (the job runs in the background).
  await expect.poll(() => outboxCount(page, `Back in stock: ${title}`, email), { timeout: 20_000 }).toBe(1);

  // Two left: said so; two go in the cart, and a third is refused with the count, leaving the cart as it was.
  await page.goto(`/product/${key}`);
  await expect(page.locator(".product-detail .stock-status")).toHaveText("Only 2 left");
  await page.locator(".product-detail__buy").getByRole("spinbutton", { name: "Quantity" }).fill("2");
  await page.locator(".product-detail__buy").getByRole("button", { name: "ADD TO CART" }).click();
  if (javaScriptEnabled) await expect(page.getByRole("status").filter({ hasText: "Added to cart" })).toBeVisible();
  await page.goto(`/product/${key}`);
  await page.locator(".product-detail__buy").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByText(`Only 2 of ${title} are left, and your cart already has 2.`).first()).toBeVisible();
  await page.goto("/cart");
  await expect(page.getByRole("spinbutton", { name: "Quantity" }).first()).toHaveValue("2");

  // One bought (BUY NOW and the test payment page), then cancelled by staff: the unit is back, with its movement.
  await page.goto(`/single-product-checkout?product=${key}`);
  await checkout.proceedToPayment({ email });
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  const orderId = await thankYouOrderId(page);
  await page.goto(`/stock/${key}`);
  await expect(page.getByTestId("on-hand")).toHaveText("1");
  await staff.open(`/dashboard?order=${orderId}`);
  const panel = page.getByTestId("order-panel");
  await panel.getByLabel("Order status").selectOption("Cancelled");
  await panel.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
  await page.goto(`/stock/${key}`);
  await expect(page.getByTestId("on-hand")).toHaveText("2");
  await expect(page.getByTestId("movement").first()).toContainText(`order cancelled (order ${orderId})`);

  // Put back as the other tests found it.
  await setOnHand(page, staff, key, 50, "e2e: reset");
});

test("a made-to-order product shows its lead time and can be bought", async ({ page }) => {
  await page.goto("/products/the_outdoor_plus/all");
  await page.locator(".product-card a").first().click();
  await expect(page.locator(".product-detail .stock-status")).toHaveText("Made to order");
  await expect(page.locator(".product-detail .shipping-note")).toContainText("Leaves warehouse in 4 - 6 weeks");
  await expect(page.locator(".product-detail__buy").getByRole("button", { name: "ADD TO CART" })).toBeVisible();
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(jsonLd.join("\n")).toContain("https://schema.org/MadeToOrder");
});
