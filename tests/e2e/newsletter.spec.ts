import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";
import { footerSignup, subscribeInFooter, uniqueEmail } from "./support/newsletter";

/**
 * The newsletter's double opt-in, end to end, with script
 * and without. The confirmation email is read from the offline outbox
 * (/dev/outbox, for signed-in staff), its signed link opened, confirmed with
 * the page's button, and then the unsubscribe link used the same way.
 */

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("newsletter: sign up, confirm with the emailed link, then unsubscribe with the link every mail carries", async ({
  page,
  staff,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // a whole journey: sign-up, staff sign-in, outbox, two link pages with axe scans, three more sign-ups
  const email = uniqueEmail(testInfo, "optin");
  await page.goto("/privacy-policy");
  await page.evaluate(() => window.localStorage.setItem("newsletter-popup-dismissed", "e2e"));
  await subscribeInFooter(page, email);
  const signup = footerSignup(page);
  await expect(signup.getByRole("status")).toContainText("Thank you for joining our mailing list");
  await expect(signup.getByRole("status")).toContainText("Confirm your subscription: we emailed you a link.");
  await expect(signup.getByLabel("Email address")).toHaveValue("");

  // Not confirmed yet: signing up again is not a duplicate (and sends no second email within 10 minutes).
  await subscribeInFooter(page, email.toUpperCase());
  await expect(signup.getByRole("status")).toContainText("Thank you for joining our mailing list");

  // The confirmation email, in the offline outbox: one, with the List-Unsubscribe headers.
  await staff.open("/dev/outbox");
  const mails = page.getByRole("link", { name: new RegExp(`Confirm your subscription to .*${escape(email)}`, "i") });
  await expect(mails).toHaveCount(1);
  await mails.click();
  await expect(page.getByRole("heading", { level: 2, name: /^Confirm your subscription to / })).toBeVisible();
  await expect(page.locator("dt", { hasText: "List-Unsubscribe-Post" }).locator("+ dd")).toHaveText("List-Unsubscribe=One-Click");
  await expect(page.locator("dt", { hasText: /^List-Unsubscribe$/ }).locator("+ dd")).toHaveText(
    /^<http:\/\/127\.0\.0\.1:\d+\/newsletter\/unsubscribe\?token=/,
  );
  const confirmHref = await page.getByRole("link", { name: /\/newsletter\/confirm\?token=/ }).getAttribute("href");
  const unsubscribeHref = await page.getByRole("link", { name: /\/newsletter\/unsubscribe\?token=/ }).getAttribute("href");
  expect(confirmHref).toBeTruthy();
  expect(unsubscribeHref).toBeTruthy();

  // Opening the link only shows the page; the button confirms.
  await page.goto(confirmHref!);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your subscription" })).toBeVisible();
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByTestId("newsletter-outcome")).toHaveText("Thank you for joining our mailing list");

  // Confirmed: now it is a duplicate, with the spec's message.
  await page.goto("/privacy-policy");
  await subscribeInFooter(page, email);
  await expect(footerSignup(page).getByRole("alert")).toHaveText("This email is already registered.");

  // A forged link does nothing.
  await page.goto("/newsletter/confirm?token=c.1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  await expect(page.getByTestId("newsletter-outcome")).toContainText("This confirmation link is not valid.");
  await expect(page.getByRole("button", { name: "Confirm subscription" })).toHaveCount(0);

  // Unsubscribe: the page, then its button.
  await page.goto(unsubscribeHref!);
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeVisible();
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByTestId("newsletter-outcome")).toHaveText(
    "You are unsubscribed. We will not send newsletter emails to this address again.",
  );

  // Unsubscribed: signing up again starts over with a new confirmation, not a duplicate.
  await page.goto("/privacy-policy");
  await subscribeInFooter(page, email);
  await expect(footerSignup(page).getByRole("status")).toContainText("Confirm your subscription");
});

test("newsletter: the honeypot is out of sight, out of the tab order and hidden from screen readers", async ({ page }) => {
  await page.goto("/privacy-policy");
  const signup = footerSignup(page);
  const honeypot = signup.locator('input[name="newsletter_homepage"]');
  await expect(honeypot).toHaveAttribute("tabindex", "-1");
  await expect(honeypot).toHaveAttribute("autocomplete", "off");
  await expect(signup.locator(".honeypot")).toHaveAttribute("aria-hidden", "true");
  await expect(honeypot).not.toBeInViewport();
  // Tabbing from the email field goes straight to the button.
  await signup.getByLabel("Email address").focus();
  await page.keyboard.press("Tab");
  await expect(signup.getByRole("button", { name: "Subscribe" })).toBeFocused();
});
