import type { Page } from "@playwright/test";
import { expect, STAFF, test, thankYouOrderId, type CheckoutForm } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";

type Counts = { total: number; approved: number; packed: number; shipped: number };

/** Places a LOVE RUB order end to end through the test payment page, as a shopper would. */
async function placeOrder(page: Page, checkout: CheckoutForm, email: string): Promise<string> {
  await page.goto("/custom-product-checkout?quantity=1");
  await checkout.proceedToPayment({ email });
  await page.getByRole("button", { name: "Credit or debit card" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  return thankYouOrderId(page);
}

async function readTiles(page: Page): Promise<Counts> {
  const tile = async (key: keyof Counts) => Number((await page.getByTestId(`tile-${key}`).textContent())!.replace(/,/g, ""));
  return { total: await tile("total"), approved: await tile("approved"), packed: await tile("packed"), shipped: await tile("shipped") };
}

/** Counts the table's rows by status over every page (e2e stores hold a few orders, all with names). */
async function countTable(page: Page): Promise<Counts> {
  const counts: Counts = { total: 0, approved: 0, packed: 0, shipped: 0 };
  for (;;) {
    for (const status of await page.getByTestId("order-row").locator(".status-badge").allTextContents()) {
      counts.total += 1;
      const key = status.trim().toLowerCase();
      if (key === "approved" || key === "packed" || key === "shipped") counts[key] += 1;
    }
    const older = page.getByRole("link", { name: "Older orders →" });
    if ((await older.count()) === 0) return counts;
    await older.click();
    await expect(page).toHaveURL(/page=\d+/);
  }
}

/** The tiles agree with the orders listed, read from the same page load (retried: other tests add orders meanwhile). */
async function expectTilesMatchTable(page: Page) {
  await expect(async () => {
    await page.goto("/dashboard");
    const tiles = await readTiles(page);
    expect(await countTable(page)).toEqual(tiles);
  }).toPass({ timeout: 20_000 });
}

test.describe("staff sign-in and dashboard", () => {
  test("a visitor is sent to /login; a wrong password is refused; the right one reaches the dashboard; sign out", async ({
    page,
    staff,
  }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    await expect(page.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
    await expect(page.locator(".site-header")).toHaveCount(0);
    await expect(page.locator(".site-footer")).toHaveCount(0);
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");

    await staff.signIn("not-the-right-password");
    const error = page.getByRole("alert");
    await expect(error).toHaveText("Invalid email or password.");
    await expect(error).toHaveCSS("color", "rgb(138, 28, 19)");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel("Email")).toHaveValue(STAFF.email);

    await staff.signIn();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByTestId("staff-email")).toHaveText(STAFF.email);
    await expect(page.locator(".site-header")).toHaveCount(0);

    // The older admin screen goes through the same guard to the dashboard.
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  });

  test("the tiles match the orders; a status change shows in the table, tiles, audit trail and the customer's progress bar", async ({
    page,
    checkout,
    staff,
    javaScriptEnabled,
  }) => {
    const email = `staff-e2e+${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
    const orderId = await placeOrder(page, checkout, email);

    // Straight to the shared link of the order: sign in, and come back to it.
    await page.goto(`/dashboard?order=${orderId}`);
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await staff.signIn();
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?order=${orderId}$`));
    await expect(page.getByTestId("order-panel")).toBeVisible();

    await expectTilesMatchTable(page);

    // Find the order by search and open its panel from the row.
    await page.getByLabel("Search orders").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=/);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`);
    await expect(page.getByTestId("order-row")).toHaveCount(1);
    await expect(row).toContainText("Grace Hopper");
    await expect(row.locator(".status-badge")).toHaveText("Approved");
    await expect(row.locator(".status-badge")).toHaveCSS("background-color", "rgb(219, 233, 251)");
    await row.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`order=${orderId}`));
    const panel = page.getByTestId("order-panel");
    await expect(panel.getByRole("heading", { name: `Order ${orderId}` })).toBeVisible();
    await expect(panel).toContainText(email);
    await expect(panel).toContainText("200 Congress Ave");
    await expect(panel).toContainText("LOVE RUB");
    await expect(panel).toContainText("Credit or debit card");
    await expect(panel.getByTestId("panel-total")).toHaveText(/^\$\d+\.\d\d$/);

    // Approved → Packed.
    await panel.getByLabel("Order status").selectOption("Packed");
    await panel.getByRole("button", { name: "Update Status" }).click();
    await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
    await expect(page).toHaveURL(new RegExp(`order=${orderId}`));
    await expect(row.locator(".status-badge")).toHaveText("Packed");
    await expect(row.locator(".status-badge")).toHaveCSS("background-color", "rgb(255, 241, 184)");
    await expect(panel.getByTestId("audit-trail").locator("li").first()).toContainText(`Approved → Packed by ${STAFF.email}`);

    await expectTilesMatchTable(page);

    await page.goto(`/order-status/${orderId}`);
    await expect(page.getByTestId("order-status")).toHaveText("Packed");
    await expect(page.getByRole("list", { name: /Order progress/ }).locator(".is-done")).toHaveCount(4);

    // Packed → Shipped: all five steps done, two entries in the history.
    await page.goto(`/dashboard?order=${orderId}`);
    await page.getByTestId("order-panel").getByLabel("Order status").selectOption("Shipped");
    await page.getByTestId("order-panel").getByLabel("Carrier").selectOption("UPS");
    await page.getByTestId("order-panel").getByLabel("Tracking number").fill("1Z999AA10123456784");
    await page.getByRole("button", { name: "Update Status" }).click();
    await expect(page.getByTestId("staff-message")).toHaveText("Status updated successfully.");
    const trail = page.getByTestId("audit-trail").locator("li");
    await expect(trail.nth(0)).toContainText("Packed → Shipped");
    await expect(trail.nth(1)).toContainText("Approved → Packed");
    await page.goto(`/order-status/${orderId}`);
    await expect(page.getByRole("list", { name: /Order progress/ }).locator(".is-done")).toHaveCount(5);
  });

  test("axe finds no serious or critical violations on the sign-in page and the dashboard", async ({ page, staff, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "one scan per page is enough");
    await page.goto("/login");
    await expectNoSeriousAxeViolations(page);
    await staff.signIn("wrong-password-for-axe");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await staff.signIn();
    await expect(page).toHaveURL(/\/dashboard/);
    const first = page.getByTestId("order-row").first();
    if (await first.count()) {
      await first.getByRole("link").click();
      await expect(page.getByTestId("order-panel")).toBeVisible();
    }
    await expectNoSeriousAxeViolations(page);
  });
});
