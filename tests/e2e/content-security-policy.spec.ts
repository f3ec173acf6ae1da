import type { Page } from "@playwright/test";
import { CheckoutForm, expect, test } from "./fixtures";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * The Content-Security-Policy in a real browser: the
 * shopper's pages, from home to a paid order, report no violation, with no
 * provider configured (the test payment page) and with every payment provider
 * pointed at its local fake, whose scripts, frames and hosted pages the
 * policy must allow because they are the configured hosts. Chromium reports
 * each violation on the console; with script, the page's
 * `securitypolicyviolation` events are logged there too.
 */
const GRILL = "/product/blaze-3159840";

function watchForViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} on ${event.documentURI}`),
    );
  });
  return violations;
}

/**
 * Resolves once the browser has reported every violation of the page as it stands: its load event has fired
 * (each resource it loads has been allowed or blocked, and Chromium logs a block as it happens), then a
 * marker logged after that has come through the same console. With script the marker is logged from a task,
 * queued behind the `securitypolicyviolation` events the page has yet to dispatch.
 */
async function violationsReported(page: Page, javaScriptEnabled: boolean | undefined): Promise<void> {
  await page.waitForLoadState("load");
  const marker = `csp-check-done-${Date.now()}`;
  await Promise.all([
    page.waitForEvent("console", (message) => message.text() === marker),
    javaScriptEnabled
      ? page.evaluate((text) => void setTimeout(() => console.log(text), 0), marker)
      : page.evaluate((text) => console.log(text), marker),
  ]);
}

async function toPaymentStep(page: Page, at: (path: string) => string) {
  await page.goto(at("/"));
  await page.goto(at(GRILL));
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText(/\d+/);
  await page.goto(at("/cart"));
  await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toBeVisible();
  await page.goto(at("/checkout"));
  await new CheckoutForm(page).proceedToPayment({ email: `csp+${Date.now()}@example.com` });
}

test("no violation from home to a paid order on the test payment page", async ({ page, javaScriptEnabled }) => {
  const violations = watchForViolations(page);
  await toPaymentStep(page, (path) => path);
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await expect(page.getByText(/TEST PAYMENT PAGE/)).toBeVisible();
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  await violationsReported(page, javaScriptEnabled);
  expect(violations).toEqual([]);
});

test.describe("with every payment provider configured (local fakes)", () => {
  test.describe.configure({ timeout: 150_000 });
  let stripe: FakeStripe;
  let paypal: FakePayPal;
  let affirm: FakeAffirm;
  let authorizeNet: FakeAuthorizeNet;
  let store: StoreServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    [stripe, paypal, affirm, authorizeNet] = await Promise.all([
      startFakeStripe(),
      startFakePayPal(),
      startFakeAffirm(),
      startFakeAuthorizeNet(),
    ]);
    store = await startStoreServer({
      STRIPE_SECRET_KEY: "sk_test_csp",
      STRIPE_PUBLISHABLE_KEY: "pk_test_csp",
      STRIPE_API_BASE: stripe.url,
      STRIPE_JS_URL: stripe.scriptUrl,
      ...fakePayPalSettings(paypal),
      ...fakeAffirmSettings(affirm),
      ...fakeAuthorizeNetSettings(authorizeNet),
    });
  });

  test.afterAll(async () => {
    await store?.stop();
    await Promise.all([stripe?.close(), paypal?.close(), affirm?.close(), authorizeNet?.close()]);
  });

  const at = (path: string) => `${store.baseURL}${path}`;

  test("the policy names exactly the configured hosts", async ({ page }) => {
    const response = await page.goto(at("/"));
    const policy = response!.headers()["content-security-policy"];
    const origins = new Set(policy.match(/https?:\/\/[^\s;]+/g));
    expect([...origins].sort()).toEqual(
      [stripe.url, paypal.url, affirm.url, new URL(authorizeNet.hostedUrl).origin].map((url) => new URL(url).origin).sort(),
    );
  });

  test("card by Stripe: the popup's Stripe.js, or Stripe's hosted page without script", async ({ page, javaScriptEnabled }) => {
    const violations = watchForViolations(page);
    await toPaymentStep(page, at);
    if (javaScriptEnabled) {
      // PayPal's SDK loads when the shopper chooses PayPal: its script must pass the policy too.
      await expect(page.locator('[data-deferred="payment-step"][data-hydrated]')).toHaveCount(1);
      await page.getByRole("button", { name: "PayPal", exact: true }).click();
      await expect(page.getByRole("button", { name: "Pay with PayPal" })).toBeVisible();
    }
    await page.getByRole("button", { name: "Credit or debit card" }).click();
    if (javaScriptEnabled) {
      const popup = page.getByRole("dialog", { name: "Pay by card" });
      await expect(popup.getByLabel("Card number")).toBeVisible();
      await popup.getByRole("button", { name: "Pay now" }).click();
    } else {
      await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
      await page.getByRole("button", { name: /^Pay / }).click();
    }
    await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
    await violationsReported(page, javaScriptEnabled);
    expect(violations).toEqual([]);
  });

  test("Authorize.Net's hosted form in its frame, or as a page without script", async ({ page, javaScriptEnabled }) => {
    const violations = watchForViolations(page);
    await toPaymentStep(page, at);
    await page.getByRole("button", { name: "Card on Authorize.Net's secure payment form" }).click();
    await expect(page.getByRole("heading", { name: /^Pay .* by card$/ })).toBeVisible();
    if (javaScriptEnabled) {
      await expect(page.getByRole("dialog", { name: "Secure payment form" })).toBeVisible();
      await expect(page.frameLocator('iframe[title="Authorize.Net secure payment form"]').locator("body")).not.toBeEmpty();
    } else {
      await page.getByRole("button", { name: "Continue to secure payment form" }).click();
      await expect(page).toHaveURL(new RegExp(`^${new URL(authorizeNet.hostedUrl).origin}`));
    }
    await violationsReported(page, javaScriptEnabled);
    expect(violations).toEqual([]);
  });

  test("Affirm: affirm.js on the product page and Direct Checkout's redirect", async ({ page, javaScriptEnabled }) => {
    const violations = watchForViolations(page);
    await toPaymentStep(page, at);
    await page.getByRole("button", { name: "Monthly payments with Affirm" }).click();
    await expect(page.getByRole("heading", { name: "Affirm (local fake)" })).toBeVisible();
    await violationsReported(page, javaScriptEnabled);
    expect(violations).toEqual([]);
  });
});
