import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";
import { footerSignup, subscribeInFooter, uniqueEmail } from "./support/newsletter";

test.describe("footer", () => {
  test("links to the policies, contact and social pages, with the year and store name", async ({ page }) => {
    await page.goto("/shipping-policy");
    const footer = page.locator("footer");
    const service = footer.getByRole("navigation", { name: "Customer service" });
    for (const [name, href] of [
      ["Privacy Policy", "/privacy-policy"],
      ["Shipping Policy", "/shipping-policy"],
      ["Return Policy", "/return-policy"],
      ["Defective Product", "/defective-product"],
      ["Contact Us", "/contact"],
    ]) {
      await expect(service.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer.getByRole("link", { name: /Facebook/ })).toHaveAttribute("href", "https://www.facebook.com/");
    await expect(footer.getByRole("link", { name: /Facebook/ })).toHaveAttribute("rel", /noopener/);
    await expect(footer.getByRole("link", { name: /^Call / })).toHaveAttribute("href", /^tel:\+1\d{10}$/);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Outdoor Kitchen Outlet`);
    await expect(footer.getByRole("heading", { name: "What our customers say" })).toBeVisible();
    await expect(footer.getByRole("img", { name: /^Rated \d(\.5)? out of 5$/ })).toHaveCount(8);

    await service.getByRole("link", { name: "Return Policy" }).click();
    await expect(page).toHaveURL(/\/return-policy$/);
    await expect(page.getByRole("heading", { level: 1, name: "Return Policy" })).toBeVisible();
  });

  test("newsletter: invalid, then subscribed (field cleared); confirming is in newsletter.spec.ts", async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    await page.goto("/privacy-policy");
    const signup = footerSignup(page);
    const field = signup.getByLabel("Email address");

    await subscribeInFooter(page, "not-an-email@example");
    await expect(signup.getByRole("alert")).toHaveText("Please enter a valid email address");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveValue("not-an-email@example");

    const email = uniqueEmail(testInfo, "footer");
    await field.fill(email);
    await signup.getByRole("button", { name: "Subscribe" }).click();
    await expect(signup.getByRole("status")).toContainText("Thank you for joining our mailing list");
    await expect(signup.getByRole("status")).toContainText("Confirm your subscription: we emailed you a link.");
    await expect(field).toHaveValue("");
    await expect(signup.getByRole("alert")).toHaveCount(0);
    if (javaScriptEnabled) {
      await expect(page).toHaveURL(/\/privacy-policy$/); // the page stayed
    } else {
      await expect(page).toHaveURL(/\/privacy-policy\?newsletter=subscribed&newsletter_source=footer#newsletter$/);
    }
  });
});

test.describe("newsletter popup", () => {
  const POPUP_DELAY_MS = 3_000;

  /**
   * Opens the home page with the page's clock stopped, so the popup's timer
   * fires only when the test moves time on.
   */
  async function openHomeWithClockStopped(page: Page) {
    await page.clock.install({ time: new Date("2026-06-01T12:00:00Z") });
    await page.clock.pauseAt(new Date("2026-06-01T12:00:01Z"));
    await page.goto("/");
    await expectHydrated(page);
  }

  async function expectHydrated(page: Page) {
    // The popup's script loads at the first interaction (or once the page is idle, which the stopped
    // clock holds back); it arms its timer when it has hydrated. The carousel on screen turns into a
    // swiper at the first interaction too, once the page has hydrated.
    await expect(async () => {
      await page.mouse.move(5, 5 + Math.round(Math.random() * 10));
      await expect(page.locator(".carousel.is-enhanced").first()).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(page.locator('[data-deferred="newsletter-popup"][data-hydrated]')).toHaveCount(1);
  }

  test("opens after 3 seconds without taking focus, closes with Escape and stays closed", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "without script there is no popup; the footer form covers signing up");
    await openHomeWithClockStopped(page);
    const dialog = page.getByRole("dialog", { name: "Get 10% off your first purchase" });
    await page.clock.runFor(POPUP_DELAY_MS - 100);
    await expect(dialog).toBeHidden();
    await page.clock.runFor(100);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).not.toBeFocused();
    await dialog.getByLabel("Email address").focus();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.reload();
    await expectHydrated(page);
    await page.clock.runFor(POPUP_DELAY_MS * 2);
    await expect(dialog).toBeHidden();
  });

  test("validates, then shows the promo code after subscribing", async ({ page, javaScriptEnabled }, testInfo) => {
    test.skip(!javaScriptEnabled, "without script there is no popup");
    await openHomeWithClockStopped(page);
    await page.clock.runFor(POPUP_DELAY_MS);
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Email address").fill("nobody@nowhere");
    await dialog.getByRole("button", { name: "Subscribe" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Please enter a valid email address.");
    await dialog.getByLabel("Email address").fill(uniqueEmail(testInfo, "popup"));
    await dialog.getByRole("button", { name: "Subscribe" }).click();
    await expect(dialog.getByText("LOVERUB10")).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("chat button", () => {
  test("is a link to /chatbot on store pages", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.locator("a.chat-button")).toHaveAttribute("href", "/chatbot");
  });

  test("hydrates once the page is idle, keeping the server's markup", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "nothing hydrates without script");
    const response = await page.goto("/contact");
    const served = (await response!.text()).match(/<a[^>]*class="chat-button"[^>]*>.*?<\/a>/)?.[0];
    expect(served).toBeTruthy();
    await expect(page.locator('[data-deferred="chat-button"][data-hydrated]')).toHaveCount(1);
    const hydrated = await page.locator("a.chat-button").evaluate((link, html) => {
      const parsed = new DOMParser().parseFromString(html, "text/html").body.firstElementChild!;
      return { now: link.outerHTML, served: parsed.outerHTML };
    }, served!);
    expect(hydrated.now).toBe(hydrated.served);
  });
});

test.describe("contact", () => {
  test("shows an error under each empty field, keeps typed values, then thanks and clears the form", async ({ page, staff }, testInfo) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
    await expect(page.getByLabel("Phone")).toHaveAttribute("type", "tel");

    await page.getByRole("button", { name: "Send message" }).click();
    for (const [label, error] of [
      ["Name", "Please enter your name."],
      ["Email", "Please enter a valid email address."],
      ["Phone", "Please enter a valid phone number (10-15 digits)."],
      ["Message", "Please enter a message."],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(error);
    }

    const name = `E2E ${testInfo.project.name} ${Date.now()}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Email", { exact: true }).fill("shopper@example");
    await page.getByLabel("Phone", { exact: true }).fill("(512) 555-0100");
    await page.getByLabel("Message", { exact: true }).fill("Do you deliver to Austin? https://example.com/where");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription("Please enter a valid email address.");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Email", { exact: true }).fill("shopper@example.com");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Thank you for contacting us!" })).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");

    // The store's copy of the message waits in the offline outbox, its link clickable.
    await staff.open("/dev/outbox");
    await expect(page.getByRole("heading", { level: 1, name: "Offline email outbox — nothing here was sent" })).toBeVisible();
    await page.getByRole("link", { name: new RegExp(`New contact message from ${name}`) }).click();
    await expect(page.getByRole("heading", { level: 2, name: `New contact message from ${name}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "https://example.com/where" })).toHaveAttribute("href", "https://example.com/where");
    await expect(page.frameLocator("iframe").getByText("Do you deliver to Austin?")).toBeVisible();
  });

  test("answers five questions in disclosure widgets", async ({ page }) => {
    await page.goto("/contact");
    const faq = page.getByRole("region", { name: "Frequently asked questions" });
    await expect(faq.locator("details")).toHaveCount(5);
    await faq.getByText("How long does shipping take?").click();
    await expect(faq.getByText(/3-5 business days/)).toBeVisible();
  });
});

test.describe("policy pages", () => {
  for (const [path, heading] of [
    ["/privacy-policy", "Privacy Policy"],
    ["/shipping-policy", "Shipping Policy"],
    ["/defective-product", "Defective Product Policy"],
    ["/return-policy", "Return Policy"],
  ]) {
    test(`${path} has its heading, title and the store's contact`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^${heading} \\|`));
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator("main").getByRole("link", { name: /@/ }).first()).toHaveAttribute("href", /^mailto:/);
    });
  }
});

test.describe("LOVE RUB landing page", () => {
  test("is black, has no store header or footer, shows the price and links to the product page", async ({ page }) => {
    await page.goto("/love-rub");
    await expect(page.getByRole("heading", { level: 1, name: "LOVE RUB" })).toBeVisible();
    await expect(page.locator(".site-header")).toHaveCount(0);
    await expect(page.locator(".site-footer")).toHaveCount(0);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(0, 0, 0)");
    for (const name of ["What Makes It Special", "Where This Shines", "Why Choose LOVE RUB", "What Grillers Are Saying"]) {
      await expect(page.getByRole("heading", { level: 2, name })).toBeAttached();
    }
    await expect(page.locator(".love-rub__features > li")).toHaveCount(4);
    await expect(page.locator(".love-rub__price")).toContainText("$15.99");
    await expect(page.getByRole("link", { name: "Order now" })).toHaveAttribute("href", "/custom-product");
    const reviews = page.getByRole("region", { name: "Customer reviews" });
    await expect(reviews.getByRole("img", { name: /^Rated / })).toHaveCount(20);
  });

  test("everything is visible once scrolled to, and without motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/love-rub");
    const order = page.getByRole("heading", { name: "Order Yours Today" });
    await order.scrollIntoViewIfNeeded();
    await expect(order).toBeVisible();
    const opacity = await page.locator(".love-rub__order").evaluate((element) => getComputedStyle(element).opacity);
    expect(opacity).toBe("1");
  });
});

test("the old search test page is gone: /test is not found", async ({ page }) => {
  expect((await page.goto("/test?q=grill"))?.status()).toBe(404);
});

test.describe("accessibility of content pages", () => {
  for (const path of ["/contact", "/privacy-policy", "/return-policy", "/love-rub", "/dev/outbox"]) {
    test(`axe finds no serious or critical violations on ${path}`, async ({ page, staff, javaScriptEnabled }) => {
      test.skip(!javaScriptEnabled, "one scan per page is enough");
      await page.emulateMedia({ reducedMotion: "reduce" });
      if (path === "/dev/outbox") await staff.open(path);
      else await page.goto(path);
      await expectNoSeriousAxeViolations(page);
    });
  }
});
