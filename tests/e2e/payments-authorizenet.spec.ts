import type { Page } from "@playwright/test";
import { CheckoutForm, expect, signInAsStaff, test, thankYouOrderId } from "./fixtures";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * The hosted card form (Authorize.Net Accept Hosted) against a local fake of
 * its API and payment form, in a store process of its own whose only payment
 * method is the hosted form: by redirect without script, in the popup with.
 */
const METHOD_BUTTON = "Card on Authorize.Net's secure payment form";
const FORM_FRAME = 'iframe[title="Authorize.Net secure payment form"]';

let fake: FakeAuthorizeNet;
let store: StoreServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakeAuthorizeNet();
  store = await startStoreServer(fakeAuthorizeNetSettings(fake));
});

test.afterAll(async () => {
  await store?.stop();
  await fake?.close();
});

const at = (path: string) => `${store.baseURL}${path}`;

/** Cart checkout up to our page before the hosted form; returns the amount shown at checkout. */
async function checkoutCart(page: Page, email: string): Promise<string> {
  await page.goto(at("/product/blaze-3159840"));
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await page.goto(at("/checkout"));
  await new CheckoutForm(page).proceedToPayment({ email });
  const amount = (await page.getByTestId("payment-amount").textContent())!.trim();
  await page.getByRole("button", { name: METHOD_BUTTON }).click();
  await expect(page.getByRole("heading", { name: `Pay ${amount} by card` })).toBeVisible();
  return amount;
}

/** The hosted form: with script in the popup that opens by itself, without on Authorize.Net's page. */
async function openHostedForm(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await expect(page.getByRole("dialog", { name: "Secure payment form" })).toBeVisible();
    return page.frameLocator(FORM_FRAME);
  }
  await page.getByRole("button", { name: "Continue to secure payment form" }).click();
  return page;
}

async function expectPaymentCancelled(page: Page, checkoutPage: string) {
  await expect(page).toHaveURL(new RegExp(`/${checkoutPage}\\?checkout=[A-Za-z0-9]+&payment_cancelled=1$`));
  await expect(page.getByRole("status").filter({ hasText: "Payment cancelled." })).toBeVisible();
}

async function expectOneOrderInDashboard(page: Page, email: string, orderId: string) {
  await page.goto(at("/login"));
  await signInAsStaff(page);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(at(`/dashboard?q=${encodeURIComponent(email)}`));
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-order-id", orderId);
}

test("a cart is paid on the hosted form; a second return and a second start leave one order", async ({ page, javaScriptEnabled }) => {
  const email = `anet-cart+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  const amount = await checkoutCart(page, email);
  const formPage = page.url();

  const form = await openHostedForm(page, javaScriptEnabled);
  await expect(form.getByTestId("anet-amount")).toHaveText(amount.replace(/,/g, ""));
  await form.getByRole("button", { name: "Pay" }).click();

  const orderId = await thankYouOrderId(page);
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  const returnUrl = page.url();
  expect(returnUrl).toContain("/checkout-authorized/authorizenet?");

  // Coming back again, or opening the paid form page again, shows the same order.
  await page.goto(returnUrl);
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  await page.goto(formPage);
  await expect(page.getByTestId("order-id")).toHaveText(orderId);

  await expectOneOrderInDashboard(page, email, orderId);
});

test("BUY NOW is paid in the popup with script, and on the hosted form by redirect without", async ({ page, javaScriptEnabled }) => {
  const email = `anet-buynow+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await page.goto(at("/single-product-checkout?product=blaze-3159840"));
  await new CheckoutForm(page).proceedToPayment({ email });
  await page.getByRole("button", { name: METHOD_BUTTON }).click();
  await expect(page.getByRole("button", { name: "Continue to secure payment form" })).toBeVisible();

  if (javaScriptEnabled) {
    const dialog = page.getByRole("dialog", { name: "Secure payment form" });
    await expect(dialog).toBeVisible();
    const viewport = page.viewportSize()!;
    const box = (await dialog.boundingBox())!;
    expect(Math.round(box.width)).toBe(Math.round(viewport.width * 0.7));
    expect(Math.round(box.height)).toBe(Math.round(viewport.height * 0.9));
    const form = page.frameLocator('iframe[title="Authorize.Net secure payment form"]');
    // resizeWindow resizes the form's frame and leaves the popup open.
    await form.getByRole("button", { name: "Resize" }).click();
    const frame = page.locator('iframe[title="Authorize.Net secure payment form"]');
    await expect(frame).toHaveCSS("width", "480px");
    await expect(frame).toHaveCSS("height", "600px");
    await expect(dialog).toBeVisible();
    await form.getByRole("button", { name: "Pay" }).click();
    await expect(page).toHaveURL(/\/checkout-authorized\/authorizenet\?.*trans_id=\d+/);
  } else {
    await page.getByRole("button", { name: "Continue to secure payment form" }).click();
    await page.getByRole("button", { name: "Pay" }).click();
  }

  const orderId = await thankYouOrderId(page);
  await page.reload();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  await expectOneOrderInDashboard(page, email, orderId);
});

test("a declined card says so and records nothing; cancel goes back", async ({ page, javaScriptEnabled }) => {
  const email = `anet-decline+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await checkoutCart(page, email);
  // Cancel on the hosted form (inside the popup with script) returns to the checkout.
  await (await openHostedForm(page, javaScriptEnabled)).getByRole("button", { name: "Cancel" }).click();
  await expectPaymentCancelled(page, "checkout");
  await page.getByRole("button", { name: METHOD_BUTTON }).click();

  await (await openHostedForm(page, javaScriptEnabled)).getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("alert")).toHaveText("Payment failed: Your card was declined. This transaction has been declined.");
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
});

test("with script, Cancel in the popup or closing it cancels the payment: the checkout says so and LOVERUB10 is free again", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the popup needs script; the declined case cancels on the hosted page without");
  // LOVERUB10 is once per email, and a +tag does not make another one: a fresh address per run.
  const email = `anet-cancel-${Date.now()}@example.com`;
  const popupOfSeasoningCheckout = async () => {
    await page.goto(at("/custom-product-checkout?quantity=1"));
    const checkout = new CheckoutForm(page);
    await checkout.form.getByLabel("Promo code").fill("LOVERUB10");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("summary-discount")).toHaveText("−$1.60");
    await checkout.proceedToPayment({ email });
    await page.getByRole("button", { name: METHOD_BUTTON }).click();
    await expect(page.getByRole("heading", { name: /^Pay \$[\d,.]+ by card$/ })).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Secure payment form" });
    await expect(dialog).toBeVisible();
    return dialog;
  };

  await popupOfSeasoningCheckout();
  await page.frameLocator(FORM_FRAME).getByRole("button", { name: "Cancel" }).click();
  await expectPaymentCancelled(page, "custom-product-checkout");

  // The cancelled attempt gave the code back, so another checkout of the same email can pay with it.
  const dialog = await popupOfSeasoningCheckout();
  await dialog.getByRole("button", { name: "Close payment form" }).click();
  await expectPaymentCancelled(page, "custom-product-checkout");
});

test("a broken or expired form link offers the way back", async ({ page }) => {
  const response = await page.goto(at("/payments/authorizenet/pa_doesnotexist0000"));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("alert")).toHaveText("Payment failed: This payment link has expired or is incomplete.");
});
