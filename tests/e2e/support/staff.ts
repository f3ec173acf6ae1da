import type { Page } from "@playwright/test";

/** The demo account the embedded start creates; playwright.config.ts and startStoreServer set STAFF_DEMO_PASSWORD. */
export const STAFF = { email: "staff@example.com", password: "e2e-staff-password-0001" };

/** Opens a staff-only page, signing in on the way (the login page sends the staff member back there). */
export async function openAsStaff(page: Page, path: string) {
  await page.goto(`/login?${new URLSearchParams({ redirectTo: path })}`);
  if (new URL(page.url()).pathname !== "/login") return page.goto(path);
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === path.split("?")[0]);
}
