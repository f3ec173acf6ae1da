import { count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCookieHeader } from "~/cart/cart-cookie.server";
import { createCartCheckout, getCheckout } from "~/checkout/checkout.server";
import { CUSTOMER_MESSAGES, parseCustomer } from "~/checkout/customer.server";
import { parseConfig } from "~/config.server";
import { checkouts, emailDeliveries, products } from "~/db/schema";
import { lastOrderCookieHeader } from "~/orders/last-order-cookie.server";
import { confirmationReference } from "~/orders/order-email.server";
import { startPayment } from "~/payments/start-payment.server";
import { loader as thankYouLoader } from "~/routes/checkout-authorized.$method";
import { action as checkoutAction } from "~/routes/checkout";
import { loader as receiptLoader } from "~/routes/checkout-confirmation";
import { retryDueEmails } from "~/services/email/deliveries.server";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { assertSendable } from "~/services/email/types";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { postRequest, TEST_ORIGIN, testContext, testRuntime, storeOf, withJobs } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * One email rule for the checkout form and the mailer, and
 * an honest thank-you page when the confirmation could not be sent.
 */

const customer = checkoutCustomer();

function mailerAccepts(to: string): boolean {
  try {
    assertSendable({ to, subject: "Your order", text: "Thanks" }, "test");
    return true;
  } catch {
    return false;
  }
}

function formAccepts(email: string): { ok: boolean; stored: string | null } {
  const parsed = parseCustomer({ ...customer, email });
  return parsed.ok ? { ok: true, stored: parsed.customer.email } : { ok: false, stored: null };
}

/** Addresses the mailer refuses, including ones the spec's loose "text@text.text" pattern would let through. */
const REFUSED_BY_MAILER = [
  "ada@example",
  "ada@@example.com",
  "ada@example.c",
  "ada..lovelace@example.com",
  ".ada@example.com",
  "ada@-example.com",
  "ada lovelace@example.com",
  "ada@exa mple.com",
  "ada@example.com\u0000",
  "ada@example.com\nBcc: victim@example.com",
  '"ada"@example.com',
  "adä@example.com",
  `${"a".repeat(250)}@example.com`,
];

describe("the checkout form and the mailer share one email rule", () => {
  it.each(REFUSED_BY_MAILER)("the mailer and the form both refuse %j", (email) => {
    expect(mailerAccepts(email)).toBe(false);
    const parsed = parseCustomer({ ...customer, email });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.email).toBe(CUSTOMER_MESSAGES.email);
  });

  it("accepts exactly what the mailer accepts, for any input (property)", () => {
    const emailish = fc.oneof(
      fc.emailAddress(),
      fc.string(),
      fc
        .tuple(fc.string(), fc.constantFrom("@", "@@", ".", " "), fc.string(), fc.constantFrom(".com", ".c", "", ".co.uk"))
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(emailish, (email) => {
        const form = formAccepts(email);
        // What the form stores is what the mailer is handed: it must send it.
        if (form.ok) expect(mailerAccepts(form.stored!)).toBe(true);
        // And the form refuses nothing the mailer would send (after the same trimming).
        if (!form.ok && email.length <= 300) expect(mailerAccepts(email.trim())).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe.each(testDatabaseKinds())("checkout email on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db.insert(products).values(testProduct("blaze-4901", 4901));
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("refuses, before payment, a checkout whose email the mailer would refuse: 400, the message, no checkout", async () => {
    const [{ value: before }] = await database.db.select({ value: count() }).from(checkouts);
    for (const email of ["ada@example", "ada..lovelace@example.com", "ada@example.com\nBcc: victim@example.com"]) {
      const first = postRequest("/checkout", { ...customer, email });
      const cookie = (await cartCookieHeader(runtime, first, [{ productKey: "blaze-4901", quantity: 1 }])).split(";")[0];
      const result = (await checkoutAction({
        request: postRequest("/checkout", { ...customer, email }, cookie),
        params: {},
        context: testContext(runtime),
      })) as {
        data: { errors: Record<string, string> };
        init: { status: number };
      };
      expect(result.init.status).toBe(400);
      expect(result.data.errors.email).toBe("Please enter a valid email address.");
    }
    const [{ value: after }] = await database.db.select({ value: count() }).from(checkouts);
    expect(after).toBe(before);
  });

  const config = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });

  async function paidCheckout() {
    const checkout = await createCartCheckout(storeOf(database.db), [{ productKey: "blaze-4901", quantity: 1 }], customer);
    const started = await startPayment(storeOf(database.db, config), {
      checkout: (await getCheckout(database.db, checkout.token))!,
      method: "stripe",
    });
    if (started.status !== "started") throw new Error(started.status);
    await decideTestPayment(database.db, started.payment.reference, "approved");
    return { checkoutToken: checkout.token, attemptId: started.attemptId };
  }

  async function thankYou({ checkoutToken, attemptId }: { checkoutToken: string; attemptId: string }) {
    const url = `${TEST_ORIGIN}/checkout-authorized/stripe?${new URLSearchParams({ checkout_token: checkoutToken, attempt: attemptId })}`;
    const result = (await thankYouLoader({ request: new Request(url), params: { method: "stripe" }, context: testContext(runtime) })) as {
      data: { kind: string; orderId: string; emailState: string };
    };
    return result.data;
  }

  it("says the confirmation was emailed when it was", async () => {
    const view = await thankYou(await paidCheckout());
    expect(view).toMatchObject({ kind: "paid", emailState: "sent" });
  });

  it("records the order when the mail fails, says so on the thank-you page, and sends it later from the queue", async () => {
    // The offline mailer cannot write its outbox: every send fails until the trigger is dropped.
    await database.db.execute(
      sql.raw(
        `create or replace function refuse_outbox() returns trigger language plpgsql as $$ begin raise exception 'mailer down'; end $$`,
      ),
    );
    await database.db.execute(
      sql.raw(`create trigger refuse_outbox before insert on email_outbox for each row execute function refuse_outbox()`),
    );
    expectErrorLog();
    const payment = await paidCheckout();
    let view: Awaited<ReturnType<typeof thankYou>>;
    try {
      view = await thankYou(payment);
    } finally {
      await database.db.execute(sql.raw(`drop trigger refuse_outbox on email_outbox`));
    }
    expect(view).toMatchObject({ kind: "paid", emailState: "pending" });
    const [queued] = await database.db
      .select()
      .from(emailDeliveries)
      .where(eq(emailDeliveries.reference, confirmationReference(view.orderId)));
    expect(queued).toMatchObject({ status: "pending", attempts: 1, toAddress: "ada@example.com" });

    // A reload does not send it again, nor pretend it was sent; nor does the order confirmation page.
    expect(await thankYou(payment)).toMatchObject({ emailState: "pending" });
    const receipt = async () => {
      const request = new Request(`${TEST_ORIGIN}/checkout-confirmation`);
      const cookie = (await lastOrderCookieHeader(runtime, request, view.orderId)).split(";")[0];
      const loaded = await receiptLoader({
        request: new Request(request.url, { headers: { Cookie: cookie } }),
        params: {},
        context: testContext(runtime),
      });
      return loaded as { order: { orderId: string } | null; emailState: string | null };
    };
    expect(await receipt()).toMatchObject({ order: { orderId: view.orderId }, emailState: "pending" });

    const report = await retryDueEmails(withJobs(database.db), runtime.emailSender, { now: new Date(Date.now() + 5 * 60_000) });
    expect(report.sent).toBe(1);
    expect(await thankYou(payment)).toMatchObject({ orderId: view.orderId, emailState: "sent" });
    expect(await receipt()).toMatchObject({ emailState: "sent" });
  });
});
