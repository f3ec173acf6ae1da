import { expect, test, type Page, type TestInfo } from "@playwright/test";

/** A fresh address per test and project, so reruns never meet an earlier run's subscription. */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${label}-${testInfo.project.name}-${Date.now()}-${random}@example.com`;
}

export function footerSignup(page: Page) {
  return page.locator("footer").getByRole("region", { name: "Join our mailing list" });
}

export async function subscribeInFooter(page: Page, email: string) {
  const signup = footerSignup(page);
  if (test.info().project.use.javaScriptEnabled) {
    // The form's script loads when it comes near the screen: once it has hydrated it answers in place.
    await signup.scrollIntoViewIfNeeded();
    await expect(page.locator('footer [data-deferred="newsletter-signup"][data-hydrated]')).toHaveCount(1);
  }
  await signup.getByLabel("Email address").fill(email);
  await signup.getByRole("button", { name: "Subscribe" }).click();
}
