import { expect, test } from "./fixtures";

test("the home page is served with the store's layout", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Shop All" })).toHaveAttribute("href", "/products/all/all");
  await expect(page.locator("footer")).toContainText(String(new Date().getFullYear()));
});

test("an unknown address shows a real 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/this-page-does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the health check reports the database", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok", database: "reachable" });
});
