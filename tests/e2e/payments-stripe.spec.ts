import type { Page } from "@playwright/test";
import { CheckoutForm, expect, signInAsStaff, test, thankYouOrderId } from "./fixtures";
import { startFakeStripe, stripeSignature, type FakeStripe } from "../fakes/stripe";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * Card payments through Stripe, against the fake Stripe API, Stripe.js and
 * hosted page (tests/fakes/stripe.ts), on a second store process whose Stripe
 * keys point at the fake. With script the card popup confirms with the
 * Payment Element; without script the same button goes to Stripe's hosted
 * page. The fake also sends the signed webhooks, so return page and webhook
 * race as they do in production.
 */
const WEBHOOK_SECRET = "whsec_e2e_stripe_secret";
const GRILL = { path: "/product/blaze-3159840", key: "blaze-3159840" };

let fake: FakeStripe;
let store: StoreServer;

// A second store process (migrations, catalog load) can take a while on a busy machine.
test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakeStripe();
  store = await startStoreServer({
    STRIPE_SECRET_KEY: "sk_test_e2e",
    STRIPE_PUBLISHABLE_KEY: "pk_test_e2e",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    STRIPE_JS_URL: fake.scriptUrl,
  });
  fake.deliverWebhooksTo(`${store.baseURL}/api/stripe/webhook`, WEBHOOK_SECRET);
});

test.afterAll(async () => {
  await store?.stop();
  await fake?.close();
});

const at = (path: string) => `${store.baseURL}${path}`;

/** Pays by card the way the browser can: the popup with script, Stripe's hosted page without. */
async function payByCard(page: Page, javaScriptEnabled: boolean, expectedAmount?: string) {
  if (expectedAmount) await expect(page.getByTestId("payment-amount")).toHaveText(expectedAmount);
  const amount = (await page.getByTestId("payment-amount").textContent())!.trim();
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  if (javaScriptEnabled) {
    const popup = page.getByRole("dialog", { name: "Pay by card" });
    await expect(popup.getByLabel("Card number")).toBeVisible();
    await popup.getByRole("button", { name: "Pay now" }).click();
  } else {
    await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
    await expect(page.getByTestId("stripe-amount")).toHaveText(`${amount.replace(",", "")} USD`);
    await page.getByRole("button", { name: /^Pay / }).click();
  }
  return thankYouOrderId(page);
}

/** The staff dashboard lists exactly one order for this shopper, with this id. */
async function expectOneOrderInDashboard(page: Page, email: string, orderId: string) {
  await page.goto(at("/login"));
  if (await page.getByLabel("Password").count()) {
    await signInAsStaff(page);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  }
  await page.goto(at(`/dashboard?q=${encodeURIComponent(email)}`));
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  await expect(page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`)).toHaveCount(1);
}

/** Sends every event the fake delivered once more, freshly signed, as Stripe does when it retries. */
async function replayWebhooks() {
  await fake.flushWebhooks();
  expect(fake.webhookDeliveries.length).toBeGreaterThan(0);
  for (const delivery of [...fake.webhookDeliveries]) {
    expect(delivery.status).toBe(200);
    const replay = await fetch(at("/api/stripe/webhook"), {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripeSignature(delivery.payload, WEBHOOK_SECRET) },
      body: delivery.payload,
    });
    expect(replay.status).toBe(200);
  }
}

test("a shopper pays a cart by card; return page, webhooks and a second submit leave one order", async ({ page, javaScriptEnabled }) => {
  const email = `card-cart+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await page.goto(at(GRILL.path));
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await page.goto(at("/cart"));
  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  await new CheckoutForm(page).proceedToPayment({ email });
  const checkoutUrl = page.url();

  const orderId = await payByCard(page, javaScriptEnabled, "$2,499.99");
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);

  // A second return, the webhooks and their replays add nothing.
  await page.reload();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  await replayWebhooks();
  expect(fake.webhookDeliveries.map((delivery) => delivery.type)).toContain("payment_intent.succeeded");

  // Submitting the paid checkout again goes to its order instead of charging again.
  await page.goto(checkoutUrl);
  const token = new URL(checkoutUrl).searchParams.get("checkout")!;
  const again = await page.request.post(at("/payments/start"), { form: { checkout: token, method: "stripe" }, maxRedirects: 0 });
  expect(again.headers().location).toBe(`/order-status/${orderId}`);
  const api = await page.request.post(at("/api/stripe"), { data: { checkoutToken: token, amount: 1 } });
  expect(api.status()).toBe(409);

  await expectOneOrderInDashboard(page, email, orderId);
});

test("BUY NOW pays one product by card", async ({ page, javaScriptEnabled }) => {
  const email = `card-buy-now+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await page.goto(at(`/single-product-checkout?product=${GRILL.key}`));
  await new CheckoutForm(page).proceedToPayment({ email });
  // The server's total (the grill plus carrier shipping) is what Stripe is asked for.
  const orderId = await payByCard(page, javaScriptEnabled);
  await replayWebhooks();
  await expectOneOrderInDashboard(page, email, orderId);
});

test("a declined card says so in the popup, which closes on its button and on the overlay", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the popup needs script; without it the hosted page is used (tested above)");
  await page.goto(at(`/single-product-checkout?product=${GRILL.key}`));
  await new CheckoutForm(page).proceedToPayment({ email: `card-decline+${Date.now()}@example.com` });

  await page.getByRole("button", { name: "Credit or debit card" }).click();
  const popup = page.getByRole("dialog", { name: "Pay by card" });
  await popup.getByLabel("Card number").fill("4000 0000 0000 0002");
  await popup.getByRole("button", { name: "Pay now" }).click();
  await expect(popup.getByRole("alert")).toHaveText("Payment failed: Your card was declined.");
  await expect(page).toHaveURL(/single-product-checkout/);

  await popup.getByRole("button", { name: "Close" }).click();
  await expect(popup).toHaveCount(0);
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await expect(popup.getByLabel("Card number")).toBeVisible();
  // A click on the overlay (outside the dialog's box) closes it.
  await page.mouse.click(5, 5);
  await expect(popup).toHaveCount(0);
});

test("when Stripe.js cannot load, the popup says so and offers Stripe's hosted page", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "only the popup loads Stripe.js");
  fake.respondWith((request) => (request.path.startsWith("/v3/stripe.js") ? { status: 404, body: "" } : fake.answerLikeStripe(request)));
  try {
    const email = `card-no-stripe-js+${Date.now()}@example.com`;
    await page.goto(at(`/single-product-checkout?product=${GRILL.key}`));
    await new CheckoutForm(page).proceedToPayment({ email });
    await page.getByRole("button", { name: "Credit or debit card" }).click();
    const popup = page.getByRole("dialog", { name: "Pay by card" });
    await expect(popup.getByRole("alert")).toHaveText("Payment failed: An unexpected error occurred.");
    await popup.getByRole("button", { name: "Pay on Stripe's payment page instead" }).click();
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  } finally {
    fake.respondWith(fake.answerLikeStripe);
  }
});
