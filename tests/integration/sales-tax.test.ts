import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckoutTaxError, createCartCheckout, getCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseCustomer } from "~/checkout/customer.server";
import { parseConfig, type Config } from "~/config.server";
import { openDatabase } from "~/db/database.server";
import { afterSaleLines, afterSaleRequests, checkouts, orders, paymentAttempts, products, taxTransactions } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { refundAttempt } from "~/payments/refunds.server";
import { startPayment } from "~/payments/start-payment.server";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { taxServiceFor } from "~/services/tax/index.server";
import type { TaxService } from "~/services/tax/types";
import { updateOrderStatus } from "~/staff/dashboard.server";
import { receiveAndRefund } from "~/staff/returns-desk-flow.server";
import { TAX_UNAVAILABLE_MESSAGE } from "~/tax/messages";
import { taxReport, taxReportCsv } from "~/tax/tax-report.server";
import { failedTaxTransactions, MAX_TAX_ATTEMPTS, retryTaxTransaction, sweepTaxTransactions } from "~/tax/tax-transactions.server";
import { fakeStripeTaxSettings, startFakeStripeTax, type FakeStripeTax } from "../fakes/stripe-tax";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { fakePayPalSettings, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { expectErrorLog } from "../support/error-log";
import { checkoutCustomer, LOVE_RUB_KEY, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { storeOf, TEST_ORIGIN, withJobs } from "../support/test-runtime";

/** Ada ships to San Francisco (CA: one of the demo states), Austin (TX: not registered) or Nashville (TN). */
const SAN_FRANCISCO = {
  ...checkoutCustomer({ email: "ada.tax@example.com" }),
  address: "1 Market St",
  city: "San Francisco",
  state: "CA" as const,
  postalCode: "94105",
};
const AUSTIN = checkoutCustomer({ email: "ada.tax@example.com" });
const NASHVILLE = { ...AUSTIN, address: "1 Broadway", city: "Nashville", state: "TN" as const, postalCode: "37203" };
const NEW_YORK = { ...AUSTIN, address: "1 Wall St", city: "New York", state: "NY" as const, postalCode: "10005" };

const GRILL = "blaze-9101"; // $1,000.00
const COVER = "blaze-9102"; // $40.00: with it alone, the cart pays $6.95 shipping
const quiet = { error: () => {} };

describe.each(testDatabaseKinds())("sales tax on %s", (kind) => {
  let database: TestDatabase;
  let stripeTax: FakeStripeTax;
  const offline = parseConfig({ NODE_ENV: "test", PUBLIC_BASE_URL: TEST_ORIGIN });
  let withStripeTax: Config;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    stripeTax = await startFakeStripeTax();
    withStripeTax = parseConfig({
      NODE_ENV: "test",
      PUBLIC_BASE_URL: TEST_ORIGIN,
      PAYMENTS_TEST_MODE: "on",
      ...fakeStripeTaxSettings(stripeTax),
    });
    await database.db.insert(products).values([testProduct(GRILL, 100_000), testProduct(COVER, 4_000), testProduct(LOVE_RUB_KEY, 1_599)]);
  });
  afterAll(async () => {
    await database?.dispose();
    await stripeTax?.close();
  });
  beforeEach(() => {
    stripeTax.reset();
    stripeTax.setRegistration("CA", "7.25", { local: [{ level: "city", displayName: "San Francisco", percent: "1.375" }] });
  });

  const cart = (config: Config, customer: typeof AUSTIN, lines: { productKey: string; quantity: number }[]) =>
    createCartCheckout(storeOf(database.db, config), lines, customer);

  /** Pays a checkout on the test page (PayPal's method, which no test here configures) and records its order. */
  async function pay(config: Config, checkout: Checkout) {
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "paypal" });
    if (started.status !== "started") throw new Error(`payment not started: ${started.status}`);
    await decideTestPayment(database.db, started.payment.reference, "approved");
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, started.attemptId));
    const paid = await confirmPayment(storeOf(database.db, config), {
      method: "paypal",
      checkoutToken: attempt!.checkoutToken,
      attemptId: started.attemptId,
    });
    if (paid.status !== "paid") throw new Error(`not paid: ${paid.status}`);
    return { order: paid.order, attemptId: started.attemptId };
  }

  const rowsOf = (orderId: string) =>
    database.db.select().from(taxTransactions).where(eq(taxTransactions.orderId, orderId)).orderBy(asc(taxTransactions.createdAt));
  const service = (config: Config): TaxService => taxServiceFor(config);

  describe("with the offline table (the default: CA, NY, TN and WA)", () => {
    it("taxes a cart shipped to California before payment, from its address: 7.25% state and 1.60% local, shipping free", async () => {
      const checkout = await cart(offline, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]);
      expect(checkout).toMatchObject({ subtotalCents: 100_000, shippingCents: 0, taxCents: 7_250 + 1_600, totalCents: 108_850 });
      expect(checkout.items[0]!.taxCents).toBe(8_850);
      expect(checkout.tax).toMatchObject({
        provider: "offline",
        state: "CA",
        amountCents: 8_850,
        taxabilityReason: null,
        jurisdictions: [
          { name: "California", level: "state", ratePercent: "7.25", amountCents: 7_250 },
          { level: "local", ratePercent: "1.60", amountCents: 1_600 },
        ],
      });
    });

    it("taxes New York's shipping too, and charges nothing in Texas, where the store is not registered, and says why", async () => {
      const ny = await cart(offline, NEW_YORK, [{ productKey: COVER, quantity: 1 }]);
      // 4% state and 4.53% local on the $40.00 cover and on the $6.95 shipping, each rounded half up.
      expect(ny).toMatchObject({ subtotalCents: 4_000, shippingCents: 695, taxCents: 160 + 28 + 181 + 31 });
      expect(ny.tax?.shippingTaxCents).toBe(28 + 31);
      expect(ny.totalCents).toBe(4_000 + 695 + 400);

      const tx = await cart(offline, AUSTIN, [{ productKey: GRILL, quantity: 1 }]);
      expect(tx).toMatchObject({
        taxCents: 0,
        totalCents: 100_000,
        tax: { amountCents: 0, taxabilityReason: "not_collecting", jurisdictions: [] },
      });
      const { taxNoteOf } = await import("~/tax/tax-note.server");
      expect(taxNoteOf(tx)).toBe("We do not collect sales tax in Texas.");
      // Paid, it is recorded with no tax: the report lists Texas's sales.
      expect((await pay(offline, tx)).order).toMatchObject({ taxCents: 0, totalCents: 100_000 });
    });

    it("takes LOVERUB10 off before tax, and taxes the seasoning as food (Tennessee's 4% grocery rate and its local average)", async () => {
      const { loveRubCheckout } = await import("../support/shopping-fixtures");
      const checkout = await loveRubCheckout(database.db, "rub.tax@example.com");
      // loveRubCheckout ships to Austin: not registered. The same checkout to Nashville is taxed on $15.99 − $1.60.
      expect(checkout.taxCents).toBe(0);
      const { recordCheckout, taxed } = await import("~/checkout/checkout.server");
      const priced = await taxed(storeOf(database.db, offline), { ...checkout, customer: { ...checkout.customer, ...NASHVILLE } });
      const taxable = 1_599 - 160;
      expect(priced.tax.lines[0]).toMatchObject({ taxCode: "txcd_40060003", amountCents: taxable });
      expect(priced.taxCents).toBe(Math.round(taxable * 0.04) + Math.round(taxable * 0.0256));
      expect(priced.totalCents).toBe(1_599 - 160 + 699 + priced.taxCents);
      expect((await recordCheckout(database.db, null, priced)).taxCents).toBe(priced.taxCents);
    });

    it("refuses a ZIP code of another state with a clear message on the ZIP field", () => {
      const parsed = parseCustomer({ ...SAN_FRANCISCO, postalCode: "78701" });
      expect(parsed).toMatchObject({
        ok: false,
        errors: { postalCode: "This ZIP code is not in California. Please check the state and the ZIP code." },
      });
      expect(parseCustomer({ ...SAN_FRANCISCO })).toMatchObject({ ok: true });
    });

    it("records the tax with the order, once, and commits it through the sweep under the Order ID", async () => {
      const checkout = await cart(offline, SAN_FRANCISCO, [
        { productKey: GRILL, quantity: 1 },
        { productKey: COVER, quantity: 2 },
      ]);
      const { order } = await pay(offline, checkout);
      expect(order).toMatchObject({
        taxCents: checkout.taxCents,
        totalCents: checkout.totalCents,
        tax: { calculationId: checkout.tax!.calculationId },
      });
      expect(order.items.map((item) => item.taxCents)).toEqual([8_850, 708]);
      // Confirming again (a reload, a webhook) records nothing more.
      await confirmPayment(storeOf(database.db, offline), {
        method: "paypal",
        checkoutToken: checkout.token,
        attemptId: (await attemptsOf(checkout.token))[0]!.id,
      });
      const [commit] = await rowsOf(order.orderId);
      expect(await rowsOf(order.orderId)).toHaveLength(1);
      expect(commit).toMatchObject({ kind: "commit", status: "pending", reference: order.orderId, taxCents: 9_558, state: "CA" });

      await sweepTaxTransactions(withJobs(database.db), service(offline), { logger: quiet });
      expect((await rowsOf(order.orderId))[0]).toMatchObject({ status: "recorded", providerTransactionId: `tax_offline_${order.orderId}` });
      // Recorded rows are never sent again.
      expect(await sweepTaxTransactions(withJobs(database.db), service(offline), { logger: quiet })).toMatchObject({ claimed: 0 });
    });

    it("gives a cancelled test order's tax back in full, and keeps it Cancelled", async () => {
      const { order } = await pay(offline, await cart(offline, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]));
      const staff = { email: "staff@example.com" };
      expect(await updateOrderStatus(withJobs(database.db), { orderId: order.orderId, status: "Cancelled", staff })).toMatchObject({
        ok: true,
      });
      expect(await updateOrderStatus(withJobs(database.db), { orderId: order.orderId, status: "Cancelled", staff })).toMatchObject({
        changed: false,
      });
      expect(await updateOrderStatus(withJobs(database.db), { orderId: order.orderId, status: "Approved", staff })).toEqual({
        ok: false,
        reason: "test-cancelled",
      });
      const reversal = (await rowsOf(order.orderId)).filter((row) => row.kind === "reversal");
      expect(reversal).toEqual([expect.objectContaining({ mode: "full", taxCents: 8_850, reference: `${order.orderId}-cancel` })]);
      await sweepTaxTransactions(withJobs(database.db), service(offline), { logger: quiet });
      expect((await rowsOf(order.orderId)).every((row) => row.status === "recorded")).toBe(true);
    });
  });

  describe("with Stripe Tax", () => {
    it("asks Stripe Tax for the calculation, with each line's amount, tax code and the shipping address", async () => {
      const checkout = await cart(withStripeTax, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]);
      expect(checkout).toMatchObject({ taxCents: 7_250 + 1_375, totalCents: 108_625, tax: { provider: "stripe" } });
      expect(checkout.tax!.calculationId).toMatch(/^taxcalc_/);
      const [request] = stripeTax.requests.filter((item) => item.path === "/v1/tax/calculations");
      expect(request!.rawBody).toContain("customer_details[address][postal_code]=94105");
      expect(request!.rawBody).toContain("line_items[0][amount]=100000");
      expect(request!.rawBody).toContain("line_items[0][tax_code]=txcd_99999999");
      expect(request!.rawBody).toContain("customer_details[address_source]=shipping");
    });

    it("charges nothing where the account has no registration and says not_collecting", async () => {
      const checkout = await cart(withStripeTax, AUSTIN, [{ productKey: GRILL, quantity: 1 }]);
      expect(checkout).toMatchObject({ taxCents: 0, tax: { taxabilityReason: "not_collecting" } });
    });

    it("records no checkout when Stripe Tax is down, and tells the shopper", async () => {
      const log = expectErrorLog();
      const before = await database.db.select().from(checkouts);
      stripeTax.respondWith(503, { error: { type: "api_error", message: "down" } });
      const error = await cart(withStripeTax, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ reason: "unavailable", message: TAX_UNAVAILABLE_MESSAGE });
      expect(log.messages().join("\n")).toMatch(/Sales tax could not be calculated/);
      expect(await database.db.select().from(checkouts)).toHaveLength(before.length);
    });

    it("refuses an address Stripe cannot place, before any payment", async () => {
      stripeTax.markAddressInvalid("94105");
      const error = await cart(withStripeTax, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CheckoutTaxError);
      expect(error).toMatchObject({ reason: "address" });
    });

    it("commits once per order with the Order ID and the row's idempotency key, retries a failure, and leaves it to staff after the last", async () => {
      const { order } = await pay(withStripeTax, await cart(withStripeTax, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]));
      stripeTax.respondWith((request, normal) =>
        request.path.endsWith("/create_from_calculation")
          ? { status: 500, body: { error: { type: "api_error", message: "busy" } } }
          : normal(request),
      );
      for (let tries = 1; tries <= MAX_TAX_ATTEMPTS; tries += 1) {
        await sweepTaxTransactions(withJobs(database.db), service(withStripeTax), { logger: quiet });
        const [row] = await rowsOf(order.orderId);
        expect(row).toMatchObject({
          attempts: tries,
          status: tries < MAX_TAX_ATTEMPTS ? "pending" : "failed",
          lastError: expect.stringContaining("500"),
        });
        // Due again at once, as if the back-off had passed.
        await database.db
          .update(taxTransactions)
          .set({ nextAttemptAt: new Date(0) })
          .where(eq(taxTransactions.id, row!.id));
      }
      const failed = await failedTaxTransactions(database.db);
      expect(failed.map((row) => row.orderId)).toContain(order.orderId);

      // Stripe answers again (the fake keeps its calculations).
      stripeTax.respondWith((request, normal) => normal(request));
      expect(await retryTaxTransaction(withJobs(database.db), failed.find((row) => row.orderId === order.orderId)!.id)).toBe(true);
      await sweepTaxTransactions(withJobs(database.db), service(withStripeTax), { logger: quiet });
      const [commit] = await rowsOf(order.orderId);
      expect(commit).toMatchObject({ status: "recorded", providerTransactionId: expect.stringMatching(/^tax_/) });
      const transactions = [...stripeTax.transactions.values()].filter((transaction) => transaction.reference === order.orderId);
      expect(transactions).toHaveLength(1);
      const creates = stripeTax.requests.filter((item) => item.path.endsWith("/create_from_calculation"));
      expect(new Set(creates.map((item) => item.headers["idempotency-key"]))).toEqual(new Set([`tax-${commit!.id}`]));
    });

    it("reverses the returned line's tax once when a return is refunded (two clicks at once, on two processes), then the rest when the order is refunded", async () => {
      const checkout = await cart(withStripeTax, SAN_FRANCISCO, [
        { productKey: GRILL, quantity: 1 },
        { productKey: COVER, quantity: 2 },
      ]);
      const { order, attemptId } = await pay(withStripeTax, checkout);
      await database.db.update(orders).set({ status: "Shipped", deliveredAt: new Date() }).where(eq(orders.orderId, order.orderId));
      await sweepTaxTransactions(withJobs(database.db), service(withStripeTax), { logger: quiet });

      const coverTax = order.items[1]!.taxCents!;
      const number = `R-TAX${order.orderId.slice(-5)}`;
      const [request] = await database.db
        .insert(afterSaleRequests)
        .values({
          number,
          orderId: order.orderId,
          kind: "return",
          status: "approved",
          reason: "Changed my mind",
          authorizationNumber: `RA-T${order.orderId.slice(-7)}`,
        })
        .returning();
      await database.db
        .insert(afterSaleLines)
        .values({ requestId: request!.id, orderId: order.orderId, lineIndex: 1, productKey: COVER, quantity: 1 });
      const refund = 4_000 + Math.round(coverTax / 2);
      const staff = { id: "00000000-0000-4000-8000-000000000001", email: "desk@example.com", role: "owner" as const };
      // On PostgreSQL the second click comes through a second connection pool, as from a second store process.
      const second = database.url ? await openDatabase({ url: database.url }) : null;
      const outcomes = await Promise.all([
        receiveAndRefund(storeOf(database.db, withStripeTax), { number, seen: "approved", amount: (refund / 100).toFixed(2), staff }),
        receiveAndRefund(storeOf(second?.db ?? database.db, withStripeTax), {
          number,
          seen: "approved",
          amount: (refund / 100).toFixed(2),
          staff,
        }),
      ]).finally(() => second?.close());
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      const reversals = (await rowsOf(order.orderId)).filter((row) => row.kind === "reversal");
      expect(reversals).toEqual([
        expect.objectContaining({
          mode: "partial",
          taxCents: Math.round(coverTax / 2),
          lines: [expect.objectContaining({ lineIndex: 1, quantity: 1 })],
        }),
      ]);

      // The order is then cancelled and its payment given back: the rest of its tax is reversed, once.
      await database.db.update(orders).set({ status: "Cancelled" }).where(eq(orders.orderId, order.orderId));
      const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
      expect(await refundAttempt(storeOf(database.db, withStripeTax), attempt!, "desk@example.com")).toMatchObject({ ok: true });
      expect(await refundAttempt(storeOf(database.db, withStripeTax), attempt!, "desk@example.com")).toMatchObject({
        ok: false,
        refusal: "conflict",
      });
      await sweepTaxTransactions(withJobs(database.db), service(withStripeTax), { logger: quiet });

      const rows = await rowsOf(order.orderId);
      expect(rows.map((row) => [row.kind, row.mode, row.status])).toEqual([
        ["commit", null, "recorded"],
        ["reversal", "partial", "recorded"],
        ["reversal", "partial", "recorded"],
      ]);
      expect(rows[1]!.taxCents + rows[2]!.taxCents).toBe(order.taxCents);
      const reversed = [...stripeTax.reversals.values()].filter((reversal) => reversal.reference.startsWith(order.orderId));
      expect(reversed).toHaveLength(2);
      const given = reversed.flatMap((reversal) => reversal.line_items).reduce((sum, line) => sum + line.amount_tax, 0);
      expect(given).toBe(-order.taxCents);
    });

    it("prices a checkout from before tax again when its payment starts: the same total is paid, a new one is shown first", async () => {
      const legacy = await cart(withStripeTax, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]);
      await database.db
        .update(checkouts)
        .set({ tax: null, taxCents: 0, totalCents: 100_000, items: legacy.items.map(({ taxCents: _tax, ...item }) => item) })
        .where(eq(checkouts.token, legacy.token));
      const repriced = await startPayment(storeOf(database.db, withStripeTax), {
        checkout: (await getCheckout(database.db, legacy.token))!,
        method: "paypal",
      });
      expect(repriced).toMatchObject({ status: "repriced", checkout: { taxCents: 8_625, totalCents: 108_625 } });
      expect(await attemptsOf(legacy.token)).toHaveLength(0);

      const untaxedTexas = await cart(withStripeTax, AUSTIN, [{ productKey: GRILL, quantity: 1 }]);
      await database.db.update(checkouts).set({ tax: null }).where(eq(checkouts.token, untaxedTexas.token));
      const same = await startPayment(storeOf(database.db, withStripeTax), {
        checkout: (await getCheckout(database.db, untaxedTexas.token))!,
        method: "paypal",
      });
      expect(same.status).toBe("started");
    });
  });

  describe("charged by every provider", () => {
    let stripe: FakeStripe;
    let paypal: FakePayPal;
    let affirm: FakeAffirm;
    let anet: FakeAuthorizeNet;
    let providers: Config;

    beforeAll(async () => {
      [stripe, paypal, affirm, anet] = await Promise.all([
        startFakeStripe(),
        startFakePayPal(),
        startFakeAffirm(),
        startFakeAuthorizeNet(),
      ]);
      providers = parseConfig({
        NODE_ENV: "test",
        PUBLIC_BASE_URL: TEST_ORIGIN,
        STRIPE_SECRET_KEY: "sk_test_tax",
        STRIPE_PUBLISHABLE_KEY: "pk_test_tax",
        STRIPE_API_BASE: stripe.url,
        ...fakePayPalSettings(paypal),
        ...fakeAffirmSettings(affirm),
        ...fakeAuthorizeNetSettings(anet),
      });
    });
    afterAll(async () => {
      await Promise.all([stripe?.close(), paypal?.close(), affirm?.close(), anet?.close()]);
    });

    /** A $1,000 grill to San Francisco: $88.50 of tax, $1,088.50 to pay. */
    async function started(method: "stripe" | "paypal" | "affirm" | "authorizenet") {
      const checkout = await cart(providers, SAN_FRANCISCO, [{ productKey: GRILL, quantity: 1 }]);
      expect(checkout).toMatchObject({ taxCents: 8_850, totalCents: 108_850 });
      const result = await startPayment(storeOf(database.db, providers), { checkout, method });
      if (result.status !== "started") throw new Error(`${method}: ${result.status}`);
      return result;
    }

    it("Stripe is asked for the total with its tax", async () => {
      const { payment } = await started("stripe");
      expect(stripe.checkoutSessions.get(payment.reference)).toMatchObject({ amount_total: 108_850, metadata: { tax_cents: "8850" } });
    });

    it("PayPal's purchase unit breaks the total down into items, shipping, tax and discount", async () => {
      const { payment } = await started("paypal");
      expect(paypal.paypal.orders.get(payment.reference)?.purchaseUnit.amount).toEqual({
        currency_code: "USD",
        value: "1088.50",
        breakdown: {
          item_total: { currency_code: "USD", value: "1000.00" },
          shipping: { currency_code: "USD", value: "0.00" },
          tax_total: { currency_code: "USD", value: "88.50" },
          discount: { currency_code: "USD", value: "0.00" },
        },
      });
    });

    it("Affirm's checkout carries tax_amount in its total", async () => {
      const { payment } = await started("affirm");
      expect(affirm.checkouts.get(payment.reference)).toMatchObject({ amount: 108_850, taxAmount: 8_850 });
    });

    it("Authorize.Net's hosted form is asked for the total with its tax element", async () => {
      await started("authorizenet");
      const call = anet.apiCalls().find((item) => item.name === "getHostedPaymentPageRequest")!;
      expect(call.body.transactionRequest).toMatchObject({ amount: "1088.50", tax: { amount: "88.50", name: "Sales tax" } });
    });
  });

  it("reports tax per state and month whose sums equal the orders' recorded amounts, as CSV too", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const report = await taxReport(database.db, { from: month, to: month });
    const [orderSums] = await database.db
      .select({ tax: orders.taxCents })
      .from(orders)
      .then((rows) => [{ tax: rows.reduce((sum, row) => sum + row.tax, 0) }]);
    expect(report.totals.collectedCents).toBe(orderSums!.tax);
    const reversals = await database.db.select().from(taxTransactions).where(eq(taxTransactions.kind, "reversal"));
    expect(report.totals.refundedCents).toBe(reversals.reduce((sum, row) => sum + row.taxCents, 0));
    expect(report.totals.netCents).toBe(report.totals.collectedCents - report.totals.refundedCents);
    expect(report.rows.find((row) => row.state === "TX")).toMatchObject({ collectedCents: 0 });
    const csv = taxReportCsv(report).trim().split("\r\n");
    expect(csv[0]).toBe("State,Month,Orders,Taxable sales,Tax collected,Tax refunded,Net tax");
    expect(csv.at(-1)).toContain(`,${(report.totals.collectedCents / 100).toFixed(2)},`);
    expect(csv.slice(1, -1).reduce((sum, line) => sum + Math.round(Number(line.split(",")[4]) * 100), 0)).toBe(
      report.totals.collectedCents,
    );
  });

  const attemptsOf = (token: string) => database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, token));
});
