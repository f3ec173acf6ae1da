import { test as base, expect, type Page } from "@playwright/test";

/**
 * The steps several specs repeat, as fixtures: `import { test, expect } from "./fixtures"`.
 *  - `checkout.fillCustomer({ email })` fills the checkout form's customer fields with a
 *    shopper in Austin, TX (any field can be overridden), `checkout.proceedToPayment({ email })`
 *    fills them and goes on to the payment step;
 *  - `thankYouOrderId(page)` waits for the thank-you page and reads its Order ID;
 *  - `staff.signIn()` signs in on the /login form the page shows, as the demo staff account;
 *  - `staff.open(path)` opens a staff-only page, signing in on the way.
 */

/** The demo account the embedded start creates; playwright.config.ts sets STAFF_DEMO_PASSWORD. */
export const STAFF = { email: "staff@example.com", password: "e2e-staff-password-0001" };

const CUSTOMER = {
  firstName: "Grace",
  lastName: "Hopper",
  email: "grace@example.com",
  phone: "5125550100",
  street: "200 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
};

type Customer = typeof CUSTOMER;

export class CheckoutForm {
  constructor(private readonly page: Page) {}

  get form() {
    return this.page.locator(".checkout__form");
  }

  async fillCustomer(details: Partial<Customer> = {}) {
    const customer = { ...CUSTOMER, ...details };
    await this.form.getByLabel("First name").fill(customer.firstName);
    await this.form.getByLabel("Last name").fill(customer.lastName);
    await this.form.getByLabel("Email").fill(customer.email);
    await this.form.getByLabel("Phone (10-15 digits)").fill(customer.phone);
    await this.form.getByLabel("Street address").fill(customer.street);
    await this.form.getByLabel("City").fill(customer.city);
    await this.form.getByLabel("State").selectOption(customer.state);
    await this.form.getByLabel("ZIP code").fill(customer.zip);
  }

  async proceedToPayment(details: Partial<Customer> = {}) {
    await this.fillCustomer(details);
    await this.page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(this.page.getByRole("heading", { name: "Payment" })).toBeVisible();
  }
}

export async function thankYouOrderId(page: Page): Promise<string> {
  await expect(page.getByRole("heading", { name: "Thank You for Your Order!" })).toBeVisible();
  return (await page.getByTestId("order-id").textContent())!.trim();
}

/** Fills and submits the /login form the page shows, as the demo staff account (for helpers that only have a page). */
export async function signInAsStaff(page: Page, password = STAFF.password) {
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

class StaffSignIn {
  constructor(private readonly page: Page) {}

  /** Fills and submits the sign-in form on the current page (a wrong password for the refusal cases). */
  async signIn(password = STAFF.password) {
    await signInAsStaff(this.page, password);
  }

  /** Opens a staff-only page (the login page sends the staff member back there). */
  async open(path: string) {
    await this.page.goto(`/login?${new URLSearchParams({ redirectTo: path })}`);
    if (new URL(this.page.url()).pathname !== "/login") {
      await this.page.goto(path);
      return;
    }
    await this.signIn();
    await this.page.waitForURL((url) => url.pathname === path.split("?")[0]);
  }
}

/**
 * With script on, a store page starts its script after its first paint (decision 026), which can come
 * after the load event `goto` waits for. Until then a click follows the plain HTML, as it would for a
 * shopper. Tests of the scripted page wait until Remix has started: its router exists, React is
 * hydrating the page and hydrates at once any part a click or a change lands on. A page that is not
 * the store's (robots.txt, a provider's stand-in page) has no Remix module to wait for.
 */
async function remixStarted(page: Page) {
  await page.waitForFunction(() => !document.querySelector('script[type="text/x-remix-module"]') || "__remixRouter" in window);
}

export const test = base.extend<{ checkout: CheckoutForm; staff: StaffSignIn }>({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) {
      const thenRemixStarted =
        <Args extends unknown[], Result>(navigate: (...args: Args) => Promise<Result>) =>
        async (...args: Args) => {
          const result = await navigate(...args);
          await remixStarted(page);
          return result;
        };
      page.goto = thenRemixStarted(page.goto.bind(page));
      page.reload = thenRemixStarted(page.reload.bind(page));
    }
    await use(page);
  },
  checkout: async ({ page }, use) => {
    await use(new CheckoutForm(page));
  },
  staff: async ({ page }, use) => {
    await use(new StaffSignIn(page));
  },
});

export { expect };
