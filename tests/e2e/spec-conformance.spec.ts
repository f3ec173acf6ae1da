import { expect, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

/** The differences a careful walk through the spec found, with script on and off. */

test("the own seasoning's bare id redirects to its page, like the brand-id form", async ({ page }) => {
  await page.goto("/product/LOVE-RUB-001");
  await expect(page).toHaveURL(/\/custom-product$/);
  await page.goto("/product/custom_product-LOVE-RUB-001");
  await expect(page).toHaveURL(/\/custom-product$/);
});

test("small texts: the brand dropdown shows the current brand, Ship to formats the phone, failures have their own title", async ({
  page,
  checkout,
}) => {
  await page.goto("/products/breeo/all");
  await expect(page.getByLabel("Brand", { exact: true })).toHaveValue("breeo");
  await expect(page.getByLabel("Brand", { exact: true }).locator("option:checked")).toHaveText("Breeo");
  await page.goto("/products/blaze/all");
  await expect(page.getByLabel("Brand", { exact: true })).toHaveValue("blaze");

  await page.goto("/custom-product-checkout?quantity=1");
  await checkout.fillCustomer({ email: "phone-format@example.com", phone: "5125550100" });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByRole("region", { name: "Ship to" })).toContainText("(512) 555-0100");

  await page.getByRole("button", { name: "PayPal" }).click();
  await page.getByRole("button", { name: "Decline payment" }).click();
  await expect(page.getByRole("alert")).toContainText("Payment failed");
  await expect(page).toHaveTitle("Payment not completed");
  await page.goto("/checkout-authorized/stripe?checkout_token=nonsense&payment=nope");
  await expect(page).toHaveTitle("Payment not completed");
});

test("a product card is one link that covers the card; its ADD TO CART stays a separate form", async ({ page }) => {
  await page.goto("/products/the_outdoor_plus/all");
  const card = page.getByRole("list", { name: "Products" }).getByRole("article").first();
  await expect(card.locator("a")).toHaveCount(1);
  await expect(card.locator("a :is(a, button, input, select, textarea)")).toHaveCount(0);
  // One lead-time rule: the card says what the detail page says.
  await expect(card).toContainText("Leaves Warehouse: 4 - 6 Weeks");
  const href = await card.locator("a").getAttribute("href");
  // A click on the price (not the title or image) opens the product.
  // Force: the card link's cover lies over the price, which is the point; the click lands on the link.
  await card.locator(".product-card__price").click({ force: true });
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByText("Leaves warehouse in 4 - 6 weeks")).toBeVisible();

  await page.goto("/products/blaze/all");
  const blaze = page.getByRole("list", { name: "Products" }).getByRole("article").first();
  await blaze.getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await expect(page).toHaveURL(/\/products\/blaze\/all$/);
});

test("single-product totals follow the quantity: at once with script, with Apply without", async ({ page, javaScriptEnabled }) => {
  await page.goto("/single-product-checkout?product=blaze-3159840&quantity=1");
  await expect(page.getByTestId("summary-subtotal")).toHaveText("$2,499.99");
  // Above $49: free shipping on BUY NOW too.
  await expect(page.getByTestId("summary-shipping")).toHaveText("Free");
  await page.locator(".checkout__form").getByLabel("Quantity").selectOption("3");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("summary-subtotal")).toHaveText("$7,499.97");
  await expect(page.getByTestId("summary-total")).toHaveText("$7,499.97");

  await page.goto("/custom-product-checkout?quantity=1");
  await expect(page.getByTestId("summary-total")).toHaveText("$22.98");
  await page.locator(".checkout__form").getByLabel("Quantity").selectOption("2");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("summary-subtotal")).toHaveText("$31.98");
  await expect(page.getByTestId("summary-shipping")).toHaveText("Calculated once your address is entered");
});

test("the pending checkout's details come back on Change details and are forgotten after the purchase", async ({
  page,
  context,
  checkout,
  javaScriptEnabled,
}) => {
  const email = `details+${Date.now()}-${test.info().project.name}@example.com`;
  await page.goto("/custom-product-checkout?quantity=1");
  await checkout.proceedToPayment({ email });
  await page.getByRole("link", { name: "Change details" }).click();
  await expect(checkout.form.getByLabel("First name")).toHaveValue("Grace");
  await expect(checkout.form.getByLabel("Email")).toHaveValue(email);
  await expect(checkout.form.getByLabel("State")).toHaveValue("TX");
  await expect(checkout.form.getByLabel("ZIP code")).toHaveValue("78701");

  if (javaScriptEnabled) {
    // Mirrored locally like the cart: without the server's cookie the browser's copy refills the form.
    expect(JSON.parse((await page.evaluate(() => window.localStorage.getItem("checkout-details"))) ?? "{}")).toMatchObject({ email });
    await context.clearCookies();
    await page.goto("/custom-product-checkout?quantity=1");
    await expect(checkout.form.getByLabel("Email")).toHaveValue(email);
  }

  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  if (javaScriptEnabled) await expect.poll(() => page.evaluate(() => window.localStorage.getItem("checkout-details"))).toBeNull();
  await page.goto("/custom-product-checkout?quantity=1");
  await expect(checkout.form.getByLabel("Email")).toHaveValue("");
});

test("Live Chat and the mobile menu's chat link open the chat in a small window with script, a page without; the chat leads back", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/products/all/all");
  const liveChat = page.getByRole("link", { name: "Live Chat" });
  if (javaScriptEnabled) {
    const [popup] = await Promise.all([page.waitForEvent("popup"), liveChat.click()]);
    await expect(popup).toHaveURL(/\/chatbot$/);
    await expect(page).toHaveURL(/\/products\/all\/all$/);
    // In the small window, the way back closes it and leaves the store where it was.
    const closed = popup.waitForEvent("close");
    await popup.getByRole("link", { name: "Back to the store" }).click();
    await closed;

    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator("summary.drawer__toggle").click();
    const drawer = page.locator("details.drawer");
    const [menuPopup] = await Promise.all([page.waitForEvent("popup"), drawer.getByRole("link", { name: "Chat with us" }).click()]);
    await expect(menuPopup).toHaveURL(/\/chatbot$/);
  } else {
    await liveChat.click();
    await expect(page).toHaveURL(/\/chatbot$/);
    await page.getByRole("link", { name: "Back to the store" }).click();
    await expect(page).toHaveURL(/\/$/);
  }
});

test("the landing page shows the block of 8 testimonials as well as the review carousel", async ({ page }) => {
  await page.goto("/love-rub");
  const block = page.getByRole("region", { name: "What our customers say" });
  await expect(block.getByRole("listitem")).toHaveCount(8);
  await block.scrollIntoViewIfNeeded();
  await expect(block.getByRole("listitem").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Customer reviews" })).toBeVisible();
});

test("the home banners are a carousel: every banner reachable before script, swiper with dots and arrows after", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.addInitScript(() => window.localStorage.setItem("newsletter-popup-dismissed", "e2e"));
  await page.goto("/");
  const banners = page.locator(".banner-carousel");
  const loveRub = banners.locator('a[href="/love-rub"]:not(.swiper-slide-duplicate a)').first();
  await expect(banners.locator('a[href="/products/blaze/all"]').first()).toBeVisible();
  if (!javaScriptEnabled) {
    // The server's scroll-snap row: the second banner is one scroll (or one Tab) away.
    await expect(banners.getByRole("region", { name: "Featured offers" })).toBeVisible();
    await loveRub.focus();
    await expect(loveRub).toBeInViewport();
    return;
  }
  await becomesSwiper(page, banners);
  await expect(banners.getByRole("button", { name: /Go to slide/ })).toHaveCount(2);
  await banners.getByRole("button", { name: "Go to slide 2" }).click();
  await expect(banners.locator(".swiper-slide-active a")).toHaveAttribute("href", "/love-rub");
  await banners.getByRole("button", { name: "Next slide" }).click();
  await expect(banners.locator(".swiper-slide-active a")).toHaveAttribute("href", "/products/blaze/all");
});

test("every checkout shows a product carousel of 4 slides below the form", async ({ page, javaScriptEnabled }) => {
  for (const path of ["/custom-product-checkout?quantity=1", "/single-product-checkout?product=blaze-3159840&quantity=1"]) {
    await page.goto(path);
    const carousel = page.locator(".product-carousel").filter({ has: page.getByRole("heading", { name: "You May Also Like" }) });
    await expect(carousel.getByRole("article").first()).toBeVisible();
    // Below the form, not beside it.
    const formBox = (await page.locator(".checkout__form").boundingBox())!;
    const carouselBox = (await carousel.boundingBox())!;
    expect(carouselBox.y).toBeGreaterThan(formBox.y + formBox.height);
    if (javaScriptEnabled) {
      await carousel.scrollIntoViewIfNeeded();
      await becomesSwiper(page, carousel.locator(".carousel"));
    }
    // 4 cards side by side on a desktop screen.
    const slide = (await carousel.locator(".carousel__slide").first().boundingBox())!;
    expect(Math.round(carouselBox.width / slide.width)).toBe(4);
  }
});

/** A carousel turns into a swiper when it is scrolled near or, already on screen, at the first interaction. */
async function becomesSwiper(page: Page, carousel: Locator) {
  await expect(async () => {
    await page.mouse.move(5, 5 + Math.round(Math.random() * 10));
    await expect(carousel).toHaveClass(/is-enhanced/, { timeout: 1000 });
  }).toPass();
}
