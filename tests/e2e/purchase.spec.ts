import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const PRODUCTS = {
  rub: { list: "/custom-product", key: "custom_product-LOVE-RUB-001" },
  grill: "/product/blaze-3159840",
  tool: "/product/primo-3082718",
};

async function addFromDetail(page: Page, path: string) {
  await page.goto(path);
  const before = await cartBadge(page);
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText(String(before + 1));
}

async function cartBadge(page: Page): Promise<number> {
  const badge = page.getByTestId("cart-badge");
  return (await badge.count()) ? Number(await badge.textContent()) : 0;
}

test("a shopper buys a cart, pays on the test page, gets the email and looks the order up", async ({
  page,
  checkout,
  staff,
  javaScriptEnabled,
}) => {
  const email = `grace+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;

  // Two products, one of them twice.
  await addFromDetail(page, PRODUCTS.grill);
  await addFromDetail(page, "/product/blaze-3159837");
  await addFromDetail(page, PRODUCTS.grill);

  await page.goto("/cart");
  const lines = page.getByRole("list", { name: "Products in your cart" }).getByRole("listitem");
  await expect(lines).toHaveCount(3);
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$7,499.97");
  await expect(page.getByTestId("cart-shipping")).toHaveText("Free");

  // Change a quantity, then remove a line.
  const quantity = page.getByLabel("Quantity").first();
  await quantity.fill("2");
  if (javaScriptEnabled) await quantity.blur();
  else await page.getByRole("button", { name: "Update" }).first().click();
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$9,999.96");
  await page
    .getByRole("button", { name: /^Remove / })
    .nth(1)
    .click();
  await expect(lines).toHaveCount(2);
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$7,499.97");

  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/checkout$/);

  // Bad email and phone: the exact messages, values kept.
  await checkout.fillCustomer({ email: "grace@", phone: "12345" });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Please enter a valid phone number (10-15 digits).")).toBeVisible();
  await expect(checkout.form.getByLabel("First name")).toHaveValue("Grace");
  await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);

  await checkout.form.getByLabel("Email").fill(email);
  await checkout.form.getByLabel("Phone (10-15 digits)").fill("5125550100");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
  await expect(page.getByTestId("payment-amount")).toHaveText("$7,499.97");

  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await expect(page.getByText(/TEST PAYMENT PAGE/)).toBeVisible();
  await page.getByRole("button", { name: "Approve payment" }).click();

  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await expect(page.getByText(`A confirmation was emailed to ${email}`)).toBeVisible();
  const orderId = (await page.getByTestId("order-id").textContent())!.trim();
  expect(orderId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  if (javaScriptEnabled) expect(await page.evaluate(() => window.localStorage.getItem("cart"))).toBeNull();

  // Reloading the thank-you page records nothing new.
  await page.reload();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);

  // The email is in the outbox, with a link to the order.
  await staff.open("/dev/outbox");
  await page.getByRole("link", { name: new RegExp(`order ${orderId} confirmed`) }).click();
  const link = page.getByRole("link", { name: new RegExp(`/order-status/${orderId}`) }).first();
  await link.click();

  await expect(page).toHaveURL(new RegExp(`/order-status/${orderId}$`));
  await expect(page.getByTestId("order-status")).toHaveText("Approved");
  // Paid on the test page: the lookup says no money moved.
  await expect(page.getByTestId("test-order")).toContainText("No money moved");
  const progress = page.getByRole("list", { name: /Order progress/ });
  for (const step of ["Order Created", "Order Paid", "Order Approved", "Order Packed", "Order Shipped"]) {
    await expect(progress).toContainText(step);
  }
  await expect(progress.locator(".is-done")).toHaveCount(3);
  await expect(page.getByText("by Grace, shipping to Austin")).toBeVisible();
  await expect(page.getByText("200 Congress Ave")).toHaveCount(0);
  await expect(page.getByText(email)).toHaveCount(0);

  await page.goto("/cart");
  await expect(page.getByText("Opps, your cart seems to be empty.")).toBeVisible();
});

test("a declined payment says so and leaves the cart as it was", async ({ page, checkout }) => {
  await addFromDetail(page, PRODUCTS.grill);
  await page.goto("/checkout");
  await checkout.fillCustomer({ email: "decline@example.com" });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "PayPal" }).click();
  await page.getByRole("button", { name: "Decline payment" }).click();
  await expect(page.getByRole("alert")).toHaveText("Payment failed: Your card was declined (test payment page).");
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
});

test("the seasoning checkout applies LOVERUB10, prices shipping by carrier and pays", async ({ page, checkout }) => {
  await page.goto("/custom-product-checkout?quantity=1");
  await expect(page.getByTestId("summary-shipping")).toHaveText("$6.99");
  await expect(page.getByTestId("summary-total")).toHaveText("$22.98");
  await checkout.form.getByLabel("Promo code").fill("SAVE50");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Invalid promo code")).toBeVisible();
  await checkout.form.getByLabel("Promo code").fill("loverub10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("summary-discount")).toHaveText("−$1.60");

  await checkout.form.getByLabel("Quantity").selectOption("3");
  // LOVERUB10 is once per email, and a +tag does not make another one: a fresh address per run.
  await checkout.proceedToPayment({ email: `rub-${Date.now()}-${test.info().project.name}@example.com` });
  const shipping = await page.getByTestId("summary-shipping").textContent();
  expect(shipping).toMatch(/^\$\d+\.\d\d$/);
  await expect(page.getByTestId("summary-discount")).toHaveText("−$4.80");
  await page.getByRole("button", { name: "Monthly payments with Affirm" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
});

test("a shopper who pays one checkout twice is told the second payment is being refunded", async ({ page, checkout }) => {
  await page.goto("/custom-product-checkout?quantity=1");
  await checkout.proceedToPayment({ email: `twice-${test.info().project.name}@example.com` });
  const paymentStep = page.url();
  await page.getByRole("button", { name: "PayPal" }).click();
  await expect(page.getByRole("button", { name: "Approve payment" })).toBeVisible();

  // A second tab of the same checkout pays first, with another method.
  const other = await page.context().newPage();
  await other.goto(paymentStep);
  await other.getByRole("button", { name: "Credit or debit card" }).click();
  await other.getByRole("button", { name: "Approve payment" }).click();
  await expect(other.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await expect(other.getByTestId("charged-twice")).toHaveCount(0);
  const orderId = await other.getByTestId("order-id").textContent();

  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await expect(page.getByTestId("order-id")).toHaveText(orderId!);
  await expect(page.getByTestId("charged-twice")).toHaveText(
    "You were charged twice; we are refunding the second payment. We have emailed you about it.",
  );
});

test("order lookup requires an id and explains an unknown one", async ({ page }) => {
  await page.goto("/order-status");
  await page.getByLabel("Order ID").fill("NOPE234567");
  await page.getByRole("button", { name: "Check Status" }).click();
  await expect(page).toHaveURL(/\/order-status\?id=NOPE234567$/);
  await expect(page.getByText("Order not found. Please check your Order ID.")).toBeVisible();
});

test("order-complete routes never crash on bad parameters", async ({ page }) => {
  const missing = await page.goto("/checkout-authorized/affirm");
  expect(missing?.status()).toBe(400);
  await expect(page.getByText("Checkout token not found in URL.")).toBeVisible();
  const unknown = await page.goto("/checkout-authorized/stripe?checkout_token=nonsense&payment=nope");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByText("Payment failed: An unexpected error occurred.")).toBeVisible();
  expect((await page.goto("/checkout-authorized/bitcoin?checkout_token=x"))?.status()).toBe(404);
  expect((await page.goto("/checkout-canceled-affirm"))?.status()).toBe(200);
  expect((await page.goto("/checkout-confirmation"))?.status()).toBe(200);
  expect((await page.goto("/single-product-checkout"))?.status()).toBe(200);
  await expect(page.getByText("Choose a product first.")).toBeVisible();
  expect((await page.goto("/test-payment/nope"))?.status()).toBe(404);
});

test("while test payments are on, every page says so", async ({ page }) => {
  for (const path of ["/", "/products/all/all", "/cart", "/contact"]) {
    await page.goto(path);
    await expect(page.getByRole("note").filter({ hasText: "Test mode: payments are not charged." })).toBeVisible();
  }
});
