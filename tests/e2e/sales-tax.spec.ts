import type { Page } from "@playwright/test";
import { expect, test, thankYouOrderId } from "./fixtures";

/**
 * Sales tax from outside, script on and off, on the offline tax table a fresh clone uses (registered in
 * the demo states CA, NY, TN and WA): the tax shows before payment once the address is known, is paid,
 * and the thank-you page, the order page, the staff panel and the staff's tax report tell the same amount.
 */

const GRILL = "/product/blaze-3159840";
const SAN_FRANCISCO = { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" };

const cents = (text: string | null) => Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100);
const usd = (amount: number) => `$${(amount / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** California in the offline table: 7.25% state and 1.60% local average, each rounded half up. */
const californiaTax = (subtotal: number) => Math.round((subtotal * 725) / 10_000) + Math.round((subtotal * 160) / 10_000);

async function grillInCart(page: Page) {
  await page.goto(GRILL);
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await page.goto("/cart");
  // No address yet: the cart says the tax comes at checkout.
  await expect(page.getByText("Calculated at Checkout")).toBeVisible();
  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
}

test("a cart shipped to California shows its sales tax before payment, pays it, and every page tells the same tax", async ({
  page,
  checkout,
  staff,
}, testInfo) => {
  test.slow(); // checkout, payment, order page, dashboard and report
  const email = `tax.${testInfo.project.name}.${Date.now()}@example.com`;
  await grillInCart(page);

  // A ZIP code of another state: said on the field, and no payment step.
  await checkout.fillCustomer({ email, ...SAN_FRANCISCO, zip: "78701" });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByText("This ZIP code is not in California. Please check the state and the ZIP code.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);

  await checkout.proceedToPayment({ email, ...SAN_FRANCISCO });
  const subtotal = cents(await page.getByTestId("summary-subtotal").textContent());
  const tax = californiaTax(subtotal);
  await expect(page.getByTestId("summary-tax")).toHaveText(usd(tax));
  await expect(page.getByText("Estimated from California's state and average local rates (the store's offline tax table).")).toBeVisible();
  await expect(page.getByTestId("summary-total")).toHaveText(usd(subtotal + tax));
  await expect(page.getByTestId("payment-amount")).toHaveText(usd(subtotal + tax));

  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await expect(page.getByText(`${usd(subtotal + tax)}`).first()).toBeVisible();
  await page.getByRole("button", { name: "Approve payment" }).click();
  const orderId = await thankYouOrderId(page);
  await expect(page.getByTestId("order-total")).toContainText(`${usd(subtotal + tax)}, including ${usd(tax)} sales tax.`);

  // The order page: the same tax, never "Calculated at Checkout".
  await page.goto(`/order-status/${orderId}`);
  await expect(page.getByTestId("summary-tax")).toHaveText(usd(tax));
  await expect(page.getByText("Calculated at Checkout")).toHaveCount(0);

  // The staff panel: the same tax, its jurisdictions and its record at the (offline) provider.
  await staff.open(`/dashboard?order=${orderId}`);
  const panel = page.getByTestId("order-panel");
  await expect(panel.getByTestId("panel-tax")).toContainText(usd(tax));
  await expect(panel.getByTestId("panel-tax")).toContainText("California 7.25%");
  await expect(panel.getByTestId("panel-tax-records")).toContainText(`Collected ${usd(tax)} (${orderId})`);

  // The confirmation email (the outbox, staff only) says the same tax.
  await page.goto("/dev/outbox");
  await page.getByRole("link", { name: new RegExp(`order ${orderId} confirmed`) }).click();
  await expect(page.getByText(`Sales tax: ${usd(tax)}`).first()).toBeVisible();
  await page.goto(`/dashboard?order=${orderId}`);

  // The tax report counts it for California this month; its CSV says the same.
  await page.getByRole("link", { name: "Sales tax", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sales tax report" })).toBeVisible();
  const month = new Date().toISOString().slice(0, 7);
  const row = page
    .getByTestId("tax-report")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "CA" }) })
    .filter({ hasText: month });
  await expect(row).toHaveCount(1);
  const collected = cents(await row.getByRole("cell").nth(3).textContent());
  expect(collected).toBeGreaterThanOrEqual(tax);
  const csv = await page.request.get(`/tax-report.csv?from=${month}&to=${month}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toMatch(new RegExp(`^CA,${month},\\d+,[\\d.]+,${(collected / 100).toFixed(2)},`, "m"));
});

test("an address in Texas, where the store is not registered, pays no tax and is told why", async ({ page, checkout }) => {
  await grillInCart(page);
  await checkout.proceedToPayment({ email: `tax.texas.${Date.now()}@example.com` });
  await expect(page.getByTestId("summary-tax")).toHaveText("$0.00");
  await expect(page.getByText("We do not collect sales tax in Texas.")).toBeVisible();
  await expect(page.getByTestId("payment-amount")).toHaveText((await page.getByTestId("summary-subtotal").textContent())!);
});

test("the tax report refuses months it cannot read, with a message, and its CSV asks staff to sign in", async ({ page, staff }) => {
  const anonymous = await page.request.get("/tax-report.csv", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(303);
  await staff.open("/tax-report?from=2026-13&to=garbage");
  await expect(page.getByRole("alert")).toHaveText(/Choose the months as YYYY-MM/);
  const refused = await page.request.get("/tax-report.csv?from=2030-01&to=2020-01");
  expect(refused.status()).toBe(400);
});
