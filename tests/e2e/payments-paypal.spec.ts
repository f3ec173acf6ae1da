import type { Page } from "@playwright/test";
import { CheckoutForm, expect, signInAsStaff, test, thankYouOrderId } from "./fixtures";
import { FAKE_PAYPAL_CLIENT_ID, fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * The PayPal wallet end to end, against a local fake of PayPal's API, hosted
 * approval page and JS SDK: a second store process has PayPal's keys pointed
 * at the fake. With script, react-paypal-js loads the fake SDK and its button
 * pays; without script, the plain button goes through PayPal's hosted page.
 */
const GRILL = "blaze-3159840";

let fake: FakePayPal;
let store: StoreServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakePayPal();
  store = await startStoreServer(fakePayPalSettings(fake));
});

test.afterAll(async () => {
  await store?.stop();
  await fake?.close();
});

test.beforeEach(() => {
  fake.paypal.captureOutcome = "complete";
});

const at = (path: string) => `${store.baseURL}${path}`;

/**
 * Pays with PayPal the way this browser can: with script, choosing PayPal loads the SDK, whose button
 * pays; without, PayPal's hosted page.
 */
async function payWithPayPal(page: Page, javaScriptEnabled: boolean, amount: string) {
  if (javaScriptEnabled) {
    await choosePayPal(page);
    const button = page.getByRole("button", { name: "Pay with PayPal" });
    await expect(button).toBeVisible();
    const style = JSON.parse((await button.getAttribute("data-style")) ?? "{}") as unknown;
    expect(style).toEqual({ layout: "horizontal", color: "white", shape: "rect", label: "pay", height: 43 });
    const sdk = JSON.parse((await button.getAttribute("data-sdk")) ?? "{}") as Record<string, string>;
    expect(sdk).toMatchObject({ clientId: FAKE_PAYPAL_CLIENT_ID, currency: "USD", intent: "capture" });
    await button.click();
  } else {
    await page.getByRole("button", { name: "PayPal" }).click();
    await expect(page.getByTestId("fake-paypal-amount")).toHaveText(`${amount} USD`);
    await page.getByRole("button", { name: "Approve" }).click();
  }
}

/** Chooses PayPal on the payment step (script on): nothing of PayPal's loads before, and its SDK loads then. */
async function choosePayPal(page: Page) {
  await expect(page.locator('[data-deferred="payment-step"][data-hydrated]')).toHaveCount(1);
  expect(await page.evaluate(() => performance.getEntriesByType("resource").some((entry) => entry.name.includes("/sdk/js")))).toBe(false);
  await page.getByRole("button", { name: "PayPal", exact: true }).click();
}

test("a cart paid with PayPal becomes one order, shown in the dashboard, however often it returns or is resubmitted", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = `paypal-cart+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await page.goto(at(`/product/${GRILL}`));
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await page.goto(at("/checkout"));
  await new CheckoutForm(page).proceedToPayment({ email });
  await expect(page.getByText(/Test mode/)).toHaveCount(0);
  const amount = (await page.getByTestId("payment-amount").textContent())!.replace(/[$,]/g, "");

  await payWithPayPal(page, javaScriptEnabled, amount);
  const orderId = await thankYouOrderId(page);
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  const returnUrl = page.url();
  const checkoutToken = new URL(returnUrl).searchParams.get("checkout_token")!;

  // PayPal captured exactly the server's total, once.
  const captured = [...fake.paypal.orders.values()].filter((order) => order.purchaseUnit.reference_id === checkoutToken);
  expect(captured.map((order) => [order.status, order.purchaseUnit.amount.value])).toContainEqual(["COMPLETED", amount]);

  // A second return and a resubmitted payment form leave the one order.
  await page.goto(returnUrl);
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  const resubmit = await page.request.post(at("/payments/start"), { form: { checkout: checkoutToken, method: "paypal" } });
  expect(new URL(resubmit.url()).pathname).toBe(`/order-status/${orderId}`);

  await page.goto(at(`/dashboard?order=${orderId}`));
  await signInAsStaff(page);
  await expect(page.getByTestId("order-panel").getByRole("heading", { name: `Order ${orderId}` })).toBeVisible();
  await expect(page.getByTestId("order-panel")).toContainText("PayPal");
  await page.getByLabel("Search orders").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(1);
});

test("BUY NOW pays with PayPal", async ({ page, javaScriptEnabled }) => {
  await page.goto(at(`/single-product-checkout?product=${GRILL}&quantity=1`));
  await new CheckoutForm(page).proceedToPayment({ email: `paypal-buy-now+${Date.now()}@example.com` });
  const amount = (await page.getByTestId("payment-amount").textContent())!.replace(/[$,]/g, "");
  await payWithPayPal(page, javaScriptEnabled, amount);
  const orderId = await thankYouOrderId(page);
  await page.reload();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
});

test("a payment method PayPal declines records nothing and says so", async ({ page, javaScriptEnabled }) => {
  fake.paypal.captureOutcome = "instrument-declined";
  await page.goto(at(`/single-product-checkout?product=${GRILL}&quantity=1`));
  await new CheckoutForm(page).proceedToPayment({ email: `paypal-declined+${Date.now()}@example.com` });
  const amount = (await page.getByTestId("payment-amount").textContent())!.replace(/[$,]/g, "");
  await payWithPayPal(page, javaScriptEnabled, amount);
  await expect(page.getByRole("alert")).toHaveText(
    "Payment failed: PayPal declined the payment method. Please try another funding source or payment method.",
  );
  await page.getByRole("link", { name: "Back to checkout" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
});

test("when PayPal's script cannot load, the page says so and the plain button still pays", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the script only loads with JavaScript on");
  await page.route(`${fake.url}/sdk/js**`, (route) => route.abort());
  await page.goto(at(`/single-product-checkout?product=${GRILL}&quantity=1`));
  await new CheckoutForm(page).proceedToPayment({ email: `paypal-noscript+${Date.now()}@example.com` });
  await choosePayPal(page);
  await expect(page.getByRole("alert")).toHaveText("Failed to load the PayPal JS SDK script.");
  await page.getByRole("button", { name: "PayPal", exact: true }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await thankYouOrderId(page);
});

test("cancelling on PayPal's page returns to the payment step, ready to pay again", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "the hosted page is the path without script");
  await page.goto(at(`/single-product-checkout?product=${GRILL}&quantity=1`));
  await new CheckoutForm(page).proceedToPayment({ email: `paypal-cancel+${Date.now()}@example.com` });
  await page.getByRole("button", { name: "PayPal" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/single-product-checkout\?checkout=[A-Za-z0-9]+&payment_cancelled=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Payment cancelled." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
  await expect(page.getByRole("button", { name: "PayPal" })).toBeVisible();
});
