import type { Page } from "@playwright/test";
import { CheckoutForm, expect, signInAsStaff, test, thankYouOrderId } from "./fixtures";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * Affirm financing end to end: a store process with Affirm's keys pointed at
 * the local fake, whose hosted page stands in for Affirm's application.
 * The flow is a redirect (Direct Checkout), so it is the same with script
 * on and off.
 */

let fake: FakeAffirm;
let store: StoreServer;

test.beforeAll(async () => {
  test.setTimeout(240_000); // a second store loads the whole catalog into its own database
  fake = await startFakeAffirm();
  store = await startStoreServer(fakeAffirmSettings(fake));
});

test.afterAll(async () => {
  await store?.stop();
  await fake?.close();
});

const url = (path: string) => `${store.baseURL}${path}`;

/** Chooses Affirm at the payment step and lands on the fake's application page. */
async function chooseAffirm(page: Page) {
  await expect(page.getByRole("button", { name: /test page/i })).toHaveCount(0);
  await page.getByRole("button", { name: "Monthly payments with Affirm" }).click();
  await expect(page.getByRole("heading", { name: "Affirm (local fake)" })).toBeVisible();
}

/** Confirms the loan on the fake; returns the order id shown on the thank-you page and Affirm's token from its address. */
async function confirmLoan(page: Page): Promise<{ orderId: string; affirmToken: string }> {
  await page.getByRole("button", { name: "Confirm" }).click();
  const orderId = await thankYouOrderId(page);
  const affirmToken = new URL(page.url()).searchParams.get("affirm_token")!;
  expect(affirmToken).toBeTruthy();
  return { orderId, affirmToken };
}

/** The same order again: a reload, Affirm's confirmation posted twice, and the JSON API. */
async function expectOneOrder(page: Page, orderId: string, affirmToken: string) {
  await page.reload();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  const replay = await page.request.post(url("/api/confirm-order"), { form: { checkout_token: affirmToken } });
  expect(replay.ok()).toBe(true);
  expect(await replay.text()).toContain(orderId);
  const api = await page.request.post(url("/api/authorize-charge"), {
    data: { checkoutToken: affirmToken },
    headers: { Origin: store.baseURL },
  });
  // Affirm's transaction id, not its checkout token, is what the order holds and every later call takes.
  const transactionId = fake.checkouts.get(affirmToken)!.transactionId;
  expect(transactionId).not.toBe(affirmToken);
  expect(await api.json()).toEqual({ transactionId, orderId });

  await page.goto(url("/login"));
  await signInAsStaff(page);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`)).toHaveCount(1);
  await page.goto(url("/logout"));
}

test("the product page shows Affirm's as-low-as message for 100 x the price", async ({ page, javaScriptEnabled }) => {
  await page.goto(url("/product/blaze-3159840"));
  const line = page.locator(".affirm-as-low-as");
  await expect(line).toHaveAttribute("data-amount", "249999");
  await expect(line).toHaveText(javaScriptEnabled ? "Starting at $70/mo with Affirm (fake)" : "As low as $70.00/mo with 0% APR financing");
});

test("a cart is paid with Affirm financing: one order, seen in the dashboard", async ({ page }) => {
  await page.goto(url("/product/blaze-3159840"));
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await page.goto(url("/checkout"));
  await new CheckoutForm(page).proceedToPayment({ email: "affirm-cart@example.com" });
  const total = await page.getByTestId("payment-amount").textContent();
  await chooseAffirm(page);
  await expect(page.getByText(`Pay ${total} over time`)).toBeVisible();

  const { orderId, affirmToken } = await confirmLoan(page);
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  await expectOneOrder(page, orderId, affirmToken);

  // The loan is captured when staff ship the order, not before.
  const transaction = () => fake.transactions.get(fake.checkouts.get(affirmToken)!.transactionId!)!;
  await page.goto(url(`/login?${new URLSearchParams({ redirectTo: `/dashboard?order=${orderId}` })}`));
  if (await page.getByLabel("Password").count()) await signInAsStaff(page);
  await expect(page.getByTestId("order-panel")).toBeVisible();
  await expect(page.locator('[data-testid="money-row"]')).toHaveCount(0);
  await page.getByLabel("Order status").selectOption("Packed");
  await page.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
  expect(transaction().status).toBe("authorized");
  await page.getByLabel("Order status").selectOption("Shipped");
  await page.getByLabel("Carrier").selectOption("USPS");
  await page.getByLabel("Tracking number").fill("9400100000000000000000");
  await page.getByRole("button", { name: "Update Status" }).click();
  // The Packed update's message is still on the page: wait for the capture itself, not for the message.
  await expect.poll(() => transaction().status).toBe("captured");
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
  await page.goto(url("/logout"));
});

test("BUY NOW is paid with Affirm financing", async ({ page }) => {
  await page.goto(url("/product/blaze-3159837"));
  await page.locator(".buy-form").getByRole("button", { name: "BUY NOW" }).click();
  await expect(page).toHaveURL(/\/single-product-checkout\?product=blaze-3159837/);
  await new CheckoutForm(page).proceedToPayment({ email: "affirm-buy-now@example.com" });
  await chooseAffirm(page);
  const { orderId, affirmToken } = await confirmLoan(page);
  await expectOneOrder(page, orderId, affirmToken);
});

test("leaving Affirm's application charges nothing and leads back to the checkout", async ({ page }) => {
  await page.goto(url("/product/blaze-3159840"));
  await page.locator(".buy-form").getByRole("button", { name: "BUY NOW" }).click();
  await new CheckoutForm(page).proceedToPayment({ email: "affirm-cancel@example.com" });
  await chooseAffirm(page);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Financing cancelled" })).toBeVisible();
  await expect(page.getByText("nothing was charged and no order was placed")).toBeVisible();
  await expect(page.getByText("Payment cancelled.")).toBeVisible();
  await page.getByRole("link", { name: "Back to checkout" }).click();
  await expect(page).toHaveURL(/\/single-product-checkout\?checkout=[A-Za-z0-9]+&payment_cancelled=1$/);
  await expect(page.getByRole("button", { name: "Monthly payments with Affirm" })).toBeVisible();
});

test("a confirmation without a token explains itself", async ({ page }) => {
  const response = await page.goto(url("/api/confirm-order"));
  expect(response?.status()).toBe(400);
  await expect(page.getByText("Checkout token not found in URL.")).toBeVisible();
});

test("POST /api/authorize-charge answers JSON errors with 4xx statuses", async ({ request }) => {
  const missing = await request.post(url("/api/authorize-charge"), { data: {}, headers: { Origin: store.baseURL } });
  expect(missing.status()).toBe(400);
  expect(await missing.json()).toEqual({ error: "checkoutToken is required." });
  const unknown = await request.post(url("/api/authorize-charge"), { data: { checkoutToken: "NOSUCHCHECKOUT01" } });
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ error: "Failed to authorize payment. Please contact support." });
  const crossSite = await request.post(url("/api/authorize-charge"), {
    data: { checkoutToken: "A" },
    headers: { Origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
  expect((await request.get(url("/api/authorize-charge"))).status()).toBe(405);
});
