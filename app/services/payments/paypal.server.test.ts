import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { FAKE_PAYPAL_CLIENT_ID, FAKE_PAYPAL_CLIENT_SECRET, paypalError, startFakePayPal } from "../../../tests/fakes/paypal";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { paymentToStart } from "../../../tests/support/shopping-fixtures";
import { item, paypalDriverKit, paypalInput, usd } from "../../../tests/support/paypal-driver";
import { centsToValue } from "./paypal-order-body";
import { createPayPalProvider, isPayPalConfigured, paypalApiBase, paypalSdkUrl } from "./paypal.server";
import { PaymentError } from "./types";

const fake = await startFakeForFile(startFakePayPal);
const { paypal, verify, sent, failure, ordersAnswer } = paypalDriverKit(fake);
const input = paypalInput;
describe("PayPal driver (Orders v2) against the fake", () => {
  it("is configured by a client id and secret; hosts follow the environment unless set", () => {
    expect(isPayPalConfigured(parseConfig({}))).toBe(false);
    const sandbox = parseConfig({ PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret" });
    expect(isPayPalConfigured(sandbox)).toBe(true);
    expect(paypalApiBase(sandbox)).toBe("https://api-m.sandbox.paypal.com");
    expect(paypalSdkUrl(sandbox)).toBe("https://www.sandbox.paypal.com/sdk/js");
    const live = parseConfig({ PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_ENVIRONMENT: "production" });
    expect(paypalApiBase(live)).toBe("https://api-m.paypal.com");
    expect(paypalSdkUrl(live)).toBe("https://www.paypal.com/sdk/js");
    const local = parseConfig({ PAYPAL_API_BASE: "http://127.0.0.1:9/", PAYPAL_SDK_BASE: "http://127.0.0.1:9" });
    expect(paypalApiBase(local)).toBe("http://127.0.0.1:9");
    expect(paypalSdkUrl(local)).toBe("http://127.0.0.1:9/sdk/js");
  });

  it("formats cents as PayPal's amount value exactly", () => {
    expect(centsToValue(12345)).toBe("123.45");
    expect(centsToValue(5)).toBe("0.05");
    expect(centsToValue(100)).toBe("1.00");
    expect(centsToValue(999999999)).toBe("9999999.99");
    expect(() => centsToValue(0)).toThrow(PaymentError);
    expect(() => centsToValue(12.5)).toThrow(PaymentError);
    expect(centsToValue(0, { allowZero: true })).toBe("0.00");
    expect(() => centsToValue(-1, { allowZero: true })).toThrow(PaymentError);
  });

  it("keeps the breakdown and items PayPal accepted: the order adds up", async () => {
    const { reference } = await paypal().startPayment(input);
    const { amount, items } = fake.paypal.orders.get(reference)!.purchaseUnit;
    expect(amount).toEqual({
      currency_code: "USD",
      value: "12345.67",
      breakdown: { item_total: usd("11399.98"), shipping: usd("99.99"), tax_total: usd("959.70"), discount: usd("114.00") },
    });
    expect(items?.map((line) => [line.sku, line.quantity, line.unit_amount])).toEqual([
      ["blaze-3159840", "2", usd("4999.99")],
      ["blaze-cover-1", "10", usd("140.00")],
    ]);
  });

  it("sends 0.00 for no shipping, tax or discount, no items when none are given, and names cut to 127 characters", async () => {
    const plain = paymentToStart({
      method: "paypal",
      attemptId: "pa_attempt0000000002",
      checkoutToken: "chk_token_0002",
      amountCents: 4900,
    });
    const { reference } = await paypal().startPayment(plain);
    const unit = fake.paypal.orders.get(reference)!.purchaseUnit;
    expect(unit.amount.breakdown).toEqual({
      item_total: usd("49.00"),
      shipping: usd("0.00"),
      tax_total: usd("0.00"),
      discount: usd("0.00"),
    });
    expect(unit.items).toBeUndefined();

    const long = item("x".repeat(130), "A".repeat(200), 4900, 1);
    const named = await paypal().startPayment({ ...plain, attemptId: "pa_attempt0000000003", items: [long] });
    const [line] = fake.paypal.orders.get(named.reference)!.purchaseUnit.items ?? [];
    expect(line).toMatchObject({ name: "A".repeat(127), sku: "x".repeat(127) });
  });

  it("throws a PaymentError for PayPal's 422 AMOUNT_MISMATCH when the tax is not what the total includes", async () => {
    const error = await failure(paypal().startPayment({ ...input, taxCents: input.taxCents + 1 }));
    expect(error).toBeInstanceOf(PaymentError);
    expect(error).toMatchObject({ provider: "paypal", status: 422 });
    expect((error as Error).message).toBe(
      "PayPal answered 422 to POST /v2/checkout/orders: UNPROCESSABLE_ENTITY: AMOUNT_MISMATCH: " +
        "Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.",
    );
    expect(fake.paypal.orders.size).toBe(0);
  });

  it("throws a PaymentError for PayPal's 422 ITEM_TOTAL_MISMATCH when the items do not add up to the subtotal", async () => {
    const error = await failure(
      paypal().startPayment({ ...input, subtotalCents: input.subtotalCents + 100, amountCents: input.amountCents + 100 }),
    );
    expect(error).toMatchObject({ name: "PaymentError", status: 422 });
    expect((error as Error).message).toContain("ITEM_TOTAL_MISMATCH: Should equal sum of (unit_amount * quantity) across all items");
    expect(fake.paypal.orders.size).toBe(0);
  });

  it("gets a token with Basic auth, then creates one purchase unit for the server total with the attempt as idempotency key", async () => {
    const started = await paypal().startPayment(input);

    const [tokenRequest] = sent("POST", "/v1/oauth2/token");
    const basic = Buffer.from(`${FAKE_PAYPAL_CLIENT_ID}:${FAKE_PAYPAL_CLIENT_SECRET}`).toString("base64");
    expect(tokenRequest?.headers.authorization).toBe(`Basic ${basic}`);
    expect(tokenRequest?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(tokenRequest?.rawBody).toBe("grant_type=client_credentials");

    const [create] = sent("POST", "/v2/checkout/orders");
    expect(create?.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(create?.headers["paypal-request-id"]).toBe(input.attemptId);
    expect(create?.headers["content-type"]).toBe("application/json");
    expect(create?.body).toEqual({
      intent: "CAPTURE",
      purchase_units: [
        {
          reference_id: input.checkoutToken,
          custom_id: input.attemptId,
          description: "Order of 2 item(s)",
          amount: {
            currency_code: "USD",
            value: "12345.67",
            breakdown: { item_total: usd("11399.98"), shipping: usd("99.99"), tax_total: usd("959.70"), discount: usd("114.00") },
          },
          items: [
            { name: "Blaze 32 Inch Grill", sku: "blaze-3159840", quantity: "2", unit_amount: usd("4999.99"), category: "PHYSICAL_GOODS" },
            { name: "Blaze Grill Cover", sku: "blaze-cover-1", quantity: "10", unit_amount: usd("140.00"), category: "PHYSICAL_GOODS" },
          ],
          shipping: {
            name: { full_name: "Grace Hopper" },
            address: {
              address_line_1: "200 Congress Ave",
              admin_area_2: "Austin",
              admin_area_1: "TX",
              postal_code: "78701",
              country_code: "US",
            },
          },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            brand_name: "Outdoor Kitchen Outlet",
            locale: "en-US",
            shipping_preference: "SET_PROVIDED_ADDRESS",
            user_action: "PAY_NOW",
            return_url: input.returnUrl,
            cancel_url: input.cancelUrl,
          },
        },
      },
    });

    const orderId = [...fake.paypal.orders.keys()][0];
    expect(started).toEqual({
      reference: orderId,
      redirectUrl: `${fake.url}/checkoutnow?token=${orderId}`,
      clientData: { orderId },
    });
  });

  it("reuses the access token until shortly before it expires", async () => {
    const driver = paypal();
    await driver.startPayment(input);
    await driver.startPayment({ ...input, attemptId: "pa_attempt0000000002" });
    expect(sent("POST", "/v1/oauth2/token")).toHaveLength(1);

    fake.paypal.tokenLifetimeSeconds = 30; // shorter than the renewal margin: renewed after half its life, so still cached now
    const another = paypal();
    await another.startPayment({ ...input, attemptId: "pa_attempt0000000003" });
    await another.startPayment({ ...input, attemptId: "pa_attempt0000000004" });
    expect(sent("POST", "/v1/oauth2/token")).toHaveLength(2);
  });

  it("gets a new token once when PayPal no longer accepts the cached one", async () => {
    const driver = paypal();
    await driver.startPayment(input);
    fake.paypal.tokens.clear();
    await driver.startPayment({ ...input, attemptId: "pa_attempt0000000002" });
    expect(sent("POST", "/v1/oauth2/token")).toHaveLength(2);
  });

  it("refuses wrong credentials with PayPal's OAuth error", async () => {
    const wrong = createPayPalProvider({ clientId: FAKE_PAYPAL_CLIENT_ID, clientSecret: "nope", apiBase: fake.url });
    const error = await failure(wrong.startPayment(input));
    expect(error).toBeInstanceOf(PaymentError);
    expect(error).toMatchObject({ status: 401, provider: "paypal" });
    expect((error as Error).message).toContain("invalid_client: Client Authentication failed");
    expect(sent("POST", "/v2/")).toHaveLength(0);
  });

  it("turns a 4xx with PayPal's error body into a PaymentError naming the issue", async () => {
    ordersAnswer(() =>
      paypalError(
        400,
        "INVALID_REQUEST",
        "Request is not well-formed, syntactically incorrect, or violates schema.",
        "INVALID_PARAMETER_VALUE",
        "The value of a field is invalid.",
      ),
    );
    const error = await failure(paypal().startPayment(input));
    expect(error).toBeInstanceOf(PaymentError);
    expect((error as PaymentError).status).toBe(400);
    expect((error as Error).message).toBe(
      "PayPal answered 400 to POST /v2/checkout/orders: INVALID_REQUEST: INVALID_PARAMETER_VALUE: The value of a field is invalid.",
    );
  });

  it("throws a PaymentError (payment stays pending) for a 500, on start and on verify", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);
    ordersAnswer(() => paypalError(500, "INTERNAL_SERVER_ERROR", "An internal server error has occurred."));
    expect(await failure(paypal().startPayment({ ...input, attemptId: "pa_attempt0000000002" }))).toMatchObject({
      name: "PaymentError",
      status: 500,
    });
    expect(await failure(verify(reference))).toMatchObject({ name: "PaymentError", status: 500 });
    expect(fake.paypal.orders.get(reference)?.status).toBe("APPROVED");
  });

  it("throws a PaymentError for a malformed body, on start, token and capture", async () => {
    ordersAnswer(() => ({ status: 201, body: "<html>not json" }));
    expect(await failure(paypal().startPayment(input))).toMatchObject({ name: "PaymentError", status: 201 });

    fake.reset();
    ordersAnswer(() => ({ status: 201, body: { id: "ABC", status: "PAYER_ACTION_REQUIRED", links: [] } }));
    expect((await failure(paypal().startPayment(input))) as Error).toMatchObject({
      message: "PayPal order ABC came without an approval link.",
    });

    fake.reset();
    fake.respondWith(() => ({ status: 200, body: "{" }));
    expect(await failure(paypal().startPayment(input))).toMatchObject({
      name: "PaymentError",
      message: "PayPal answered the token request with an unexpected body.",
    });

    fake.reset();
    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);
    ordersAnswer((request) =>
      request.path.endsWith("/capture")
        ? { status: 201, body: { id: reference, status: "COMPLETED", purchase_units: [{ payments: { captures: [] } }] } }
        : fake.answer(request),
    );
    expect(await failure(verify(reference))).toMatchObject({ name: "PaymentError" });
  });

  it("gives up after its time-out with a PaymentError", async () => {
    ordersAnswer(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return fake.answer(request);
    });
    const started = Date.now();
    const error = await failure(paypal(100).startPayment(input));
    expect(error).toBeInstanceOf(PaymentError);
    expect((error as Error).message).toMatch(/PayPal could not be reached \(POST \/v2\/checkout\/orders\)/);
    expect(Date.now() - started).toBeLessThan(450);
  });

  it("serves a hosted approval page that sends the shopper back like PayPal", async () => {
    const { reference, redirectUrl } = await paypal().startPayment(input);
    const page = await fetch(redirectUrl);
    expect(await page.text()).toContain("12345.67 USD");

    const approve = await fetch(`${fake.url}/checkoutnow/approve?token=${reference}`, { method: "POST", redirect: "manual" });
    const back = new URL(approve.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("http://store.test/checkout-authorized/paypal");
    expect(back.searchParams.get("checkout_token")).toBe(input.checkoutToken);
    expect(back.searchParams.get("attempt")).toBe(input.attemptId);
    expect(back.searchParams.get("token")).toBe(reference);
    expect(back.searchParams.get("PayerID")).toMatch(/^[A-Z0-9]{13}$/);
    expect(fake.paypal.orders.get(reference)?.status).toBe("APPROVED");
  });
});
