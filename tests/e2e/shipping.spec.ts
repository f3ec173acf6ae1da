import type { Page } from "@playwright/test";
import { expect, test, thankYouOrderId, type CheckoutForm } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";

/** A LOVE RUB order paid on the test payment page, as a shopper would place it. */
async function placeOrder(page: Page, checkout: CheckoutForm, email: string): Promise<string> {
  await page.goto("/custom-product-checkout?quantity=1");
  await checkout.proceedToPayment({ email });
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  return thankYouOrderId(page);
}

test("a test-mode order ships from the dashboard with a carrier and a tracking number: one email with the tracking link, and the order page shows them", async ({
  page,
  checkout,
  staff,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // a whole journey: checkout, dashboard, outbox, order page
  const email = `shipping.${testInfo.project.name}.${Date.now()}@example.com`;
  const tracking = testInfo.project.name === "js-on" ? "1Z999AA10123456784" : "1Z999AA10123456785";
  const orderId = await placeOrder(page, checkout, email);

  await staff.open(`/dashboard?order=${orderId}`);
  const panel = page.getByTestId("order-panel");
  await expect(panel.getByLabel("Carrier")).toBeVisible();

  // Shipped without a tracking number: refused, nothing changed.
  await panel.getByLabel("Order status").selectOption("Shipped");
  await panel.getByLabel("Carrier").selectOption("UPS");
  await panel.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Enter the tracking number to mark the order Shipped.");
  await page.goto(`/dashboard?order=${orderId}`);
  await expect(panel.locator(".status-badge").first()).toHaveText("Approved");

  // With both: shipped, and the panel shows the parcel.
  await panel.getByLabel("Order status").selectOption("Shipped");
  await panel.getByLabel("Carrier").selectOption("UPS");
  await panel.getByLabel("Tracking number").fill(` ${tracking} `);
  await panel.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
  const shipment = panel.getByTestId("panel-shipment");
  await expect(shipment).toContainText(`UPS, tracking number ${tracking}`);
  await expect(shipment).toContainText("Not delivered yet");
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

  // Posting Shipped again (a double click, a reload) sends no second email.
  await panel.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");

  // The outbox holds one shipped email, with the carrier's tracking link.
  await page.goto("/dev/outbox");
  const subject = new RegExp(`your order ${orderId} has shipped`);
  await expect(page.getByRole("link", { name: subject })).toHaveCount(1);
  await page.getByRole("link", { name: subject }).click();
  await expect(page.getByText("Your order has shipped!").first()).toBeVisible();
  await expect(page.getByText(`Carrier: UPS. Tracking number: ${tracking}.`).first()).toBeVisible();
  await expect(page.getByRole("link", { name: `https://www.ups.com/track?tracknum=${tracking}` }).first()).toBeVisible();

  // The order page: carrier, number and the link, under Shipped.
  await page.goto(`/order-status/${orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("Shipped");
  const parcel = page.getByTestId("order-shipment");
  await expect(parcel).toContainText("UPS");
  await expect(parcel).toContainText(tracking);
  await expect(parcel.getByRole("link", { name: /Track your parcel/ })).toHaveAttribute(
    "href",
    `https://www.ups.com/track?tracknum=${tracking}`,
  );
  await expect(page.getByTestId("order-delivered")).toHaveCount(0);
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

  // The test mode marks it delivered; the order page says when.
  await page.goto(`/dashboard?order=${orderId}`);
  await panel.getByRole("button", { name: "Mark delivered (test mode)" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Delivery date recorded.");
  await expect(panel.getByTestId("panel-delivered")).toContainText("Delivered on");
  await page.goto(`/order-status/${orderId}`);
  await expect(page.getByTestId("order-delivered")).toHaveText(/^Delivered on \w+/);
  await expect(page.getByRole("list", { name: /Order progress/ }).locator(".is-done")).toHaveCount(5);
});
