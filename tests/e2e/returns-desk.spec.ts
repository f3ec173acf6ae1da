import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test, thankYouOrderId, type CheckoutForm } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";

/**
 * The returns desk (issue 41, item 4), script on and off: a test-mode grill order is shipped and
 * delivered from the dashboard, the customer requests its return with a photo, and staff approve it
 * (the email gives the authorization number) and mark it received (the refund, less shipping both
 * ways and with the returned item's sales tax, is recorded once and emailed; the order page lists the
 * return and the refund).
 */

const GRILL = "blaze-3159840";

async function deliveredOrder(
  page: Page,
  checkout: CheckoutForm,
  staff: { open(path: string): Promise<void> },
  email: string,
  tracking: string,
) {
  await page.goto(`/single-product-checkout?product=${GRILL}`);
  // Shipped to California, one of the demo states the offline tax table charges tax in.
  await checkout.proceedToPayment({ email, street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" });
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  const orderId = await thankYouOrderId(page);

  await staff.open(`/dashboard?order=${orderId}`);
  const panel = page.getByTestId("order-panel");
  await panel.getByLabel("Order status").selectOption("Shipped");
  await panel.getByLabel("Carrier").selectOption("UPS");
  await panel.getByLabel("Tracking number").fill(tracking);
  await panel.getByRole("button", { name: "Update Status" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
  await panel.getByRole("button", { name: "Mark delivered (test mode)" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("Delivery date recorded.");
  return orderId;
}

test("staff approve a return (the email gives the authorization number) and mark it received: refunded once, emailed", async ({
  page,
  checkout,
  staff,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // a whole journey: checkout, dashboard, the customer's request, the desk, the outbox
  const email = `desk.${testInfo.project.name}.${Date.now()}@example.com`;
  const tracking = testInfo.project.name === "js-on" ? "1Z999AA10123456790" : "1Z999AA10123456791";
  const orderId = await deliveredOrder(page, checkout, staff, email, tracking);

  // The customer asks for the return, with a photo (a grill ships by freight).
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#555555" } })
    .jpeg()
    .toBuffer();
  await page.goto(`/order-status/${orderId}`);
  await page.getByRole("link", { name: "Request a return" }).click();
  const proof = page.getByRole("region", { name: "Confirm it is your order" });
  await proof.getByLabel("Email address").fill(email);
  await proof.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "What would you like to return?" })).toBeVisible();
  await page.getByRole("group", { name: "Items and quantities" }).getByRole("combobox").first().selectOption("1");
  await page.getByRole("radio", { name: "Changed my mind" }).check();
  await page.getByLabel(/^Photos/).setInputFiles({ name: "grill.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Request a return" }).click();
  const sent = page.getByTestId("request-sent");
  await expect(sent).toContainText(/R-[2-9A-HJKMNP-Z]{6}/);
  const number = /R-[2-9A-HJKMNP-Z]{6}/.exec((await sent.textContent()) ?? "")![0];

  // The desk lists it; its page shows the photo, staff only.
  await staff.open("/returns");
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { name: `Return ${number}` })).toBeVisible();
  await expect(page.getByTestId("request-status")).toHaveText("requested");
  const image = page.getByRole("img", { name: /Sent by the customer, 1 of 1/ });
  await expect(image).toBeVisible();
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

  // Approve: an authorization number, and the email that carries it.
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("staff-message")).toContainText(`Return ${number} approved`);
  const authorization = (await page.getByTestId("authorization-number").textContent())!.trim();
  expect(authorization).toMatch(/^RA-[2-9A-HJKMNP-Z]{8}$/);

  // While it is approved, the printable instructions: the number and the store's return address.
  await page.goto(`/return-instructions/${number}/${authorization}`);
  await expect(page.getByTestId("return-authorization")).toContainText(authorization);
  await expect(page.getByTestId("return-address")).toContainText("2200 Commerce St");
  await page.goto(`/returns/${number}`);

  // Mark received: the proposal is the grill's price and its sales tax (shipping to the customer was free, no label bought).
  await expect(page.getByLabel(/Amount to refund/)).toBeVisible();
  const proposed = (await page.getByTestId("proposed-refund").textContent())!.trim();
  const taxBack = (await page.getByTestId("refund-tax").textContent())!.trim();
  expect(taxBack).not.toBe("+$0.00");
  // Higher than proposed: refused, nothing refunded.
  const cents = Math.round(Number(proposed.replace(/[$,]/g, "")) * 100);
  await page.getByLabel(/Amount to refund/).fill(((cents + 1) / 100).toFixed(2));
  await page.getByRole("button", { name: "Mark received and refund" }).click();
  await expect(page.getByTestId("staff-message")).toContainText(`The refund can be at most ${proposed}`);
  await page.getByLabel(/Amount to refund/).fill((cents / 100).toFixed(2));
  await page.getByRole("button", { name: /Mark received and refund|^Refund$/ }).click();
  await expect(page.getByTestId("staff-message")).toContainText(`Return ${number} received and ${proposed} refunded`);
  await expect(page.getByTestId("request-status")).toHaveText("refunded");
  await expect(page.getByTestId("refunded")).toContainText(proposed);
  await expect(page.getByRole("button", { name: /Refund/ })).toHaveCount(0);

  // The returned grill is back on the shelf, with the return as the movement's reason (issue 49).
  await page.goto(`/stock/${GRILL}`);
  await expect(page.getByTestId("movement").filter({ hasText: `return ${number} received (order ${orderId})` })).toHaveCount(1);

  // The order page, with its Order ID alone: the return and its refund, with amount and date.
  await page.goto(`/order-status/${orderId}`);
  await expect(page.getByTestId("order-after-sale")).toContainText(`Return ${number}`);
  await expect(page.getByTestId("order-after-sale")).toContainText("received and refunded");
  await expect(page.getByTestId("order-refunds")).toContainText(`Return ${number}: ${proposed} refunded on`);

  // The outbox: one approval email with the authorization number and its instructions link, one refund email.
  await page.goto("/dev/outbox");
  const approved = new RegExp(`return ${number} approved \\(${authorization}\\)`);
  await expect(page.getByRole("link", { name: approved })).toHaveCount(1);
  await expect(page.getByRole("link", { name: new RegExp(`return ${number} received and refunded`) })).toHaveCount(1);
  await page.getByRole("link", { name: new RegExp(`return ${number} received and refunded`) }).click();
  await expect(page.getByText(`refunded ${proposed}, including ${taxBack.replace("+", "")} of sales tax,`).first()).toBeVisible();
  await page.goto("/dev/outbox");
  await page.getByRole("link", { name: approved }).click();
  await expect(page.getByText(`Your return authorization number is ${authorization}.`, { exact: false }).first()).toBeVisible();
  const instructions = page.getByRole("link", { name: new RegExp(`/return-instructions/${number}/${authorization}`) }).first();
  await expect(instructions).toBeVisible();

  // Once the return has arrived, its printable instructions are gone (they were for the approved return).
  const gone = await page.goto(`/return-instructions/${number}/${authorization}`);
  expect(gone?.status()).toBe(404);
});
