import { describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FAKE_AFFIRM_PRIVATE_KEY, FAKE_AFFIRM_PUBLIC_KEY, startFakeAffirm } from "../../../tests/fakes/affirm";
import { parseConfig } from "~/config.server";
import { publicConfig } from "~/public-config.server";
import { AFFIRM_AUTHORIZATION_FAILED, affirmApiBase, createAffirmProvider, isAffirmConfigured } from "./affirm.server";
import { PaymentError } from "./types";
import { expectErrorLog } from "../../../tests/support/error-log";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { paymentToStart } from "../../../tests/support/shopping-fixtures";

/** $4,999.98 − $4.80 + $105.75 shipping + $412.50 tax. */
const input = paymentToStart({
  method: "affirm",
  attemptId: "pa_attempt0000000001",
  checkoutToken: "checkout-token-0001",
  amountCents: 551_343,
  subtotalCents: 499_998,
  shippingCents: 10_575,
  discountCents: 480,
  taxCents: 41_250,
  description: "Order of 1 item(s)",
  items: [
    {
      productKey: "blaze-3159840",
      title: "Blaze 32 Inch Grill",
      model: "BLZ-4",
      brand: "blaze",
      imageUrl: "http://store.test/images/products/blaze/3159840/1.svg",
      productUrl: "http://store.test/product/blaze-3159840",
      categories: ["Grills", "Built-In Grills"],
      unitPriceCents: 249_999,
      quantity: 2,
    },
  ],
  cancelUrl: "http://store.test/checkout-canceled-affirm?checkout_token=checkout-token-0001",
});

const token = (value: string) => new URLSearchParams({ affirm_token: value });

const fake = await startFakeForFile(startFakeAffirm);

describe("createAffirmProvider", () => {
  const affirm = (timeoutMs?: number) =>
    createAffirmProvider({
      publicApiKey: FAKE_AFFIRM_PUBLIC_KEY,
      privateApiKey: FAKE_AFFIRM_PRIVATE_KEY,
      apiBase: fake.url,
      merchantName: "Outdoor Kitchen Outlet",
      confirmationUrl: "http://store.test/api/confirm-order",
      timeoutMs,
    });

  const verify = (reference: string, params = token(reference)) =>
    affirm().verifyPayment({ attemptId: input.attemptId, reference, amountCents: input.amountCents, returnParams: params });

  it("is the real financing driver", () => {
    expect(affirm()).toMatchObject({ id: "affirm", method: "affirm", isStandIn: false });
  });

  it("is configured by both keys and points at Affirm's hosts for the environment", () => {
    expect(isAffirmConfigured(parseConfig({}))).toBe(false);
    const sandbox = parseConfig({ AFFIRM_PUBLIC_API_KEY: "pub", AFFIRM_PRIVATE_API_KEY: "priv" });
    expect(isAffirmConfigured(sandbox)).toBe(true);
    expect(affirmApiBase(sandbox)).toBe("https://sandbox.affirm.com");
    expect(publicConfig(sandbox).affirmScriptUrl).toBe("https://cdn1-sandbox.affirm.com/js/v2/affirm.js");
    expect(publicConfig(parseConfig({})).affirmScriptUrl).toBeNull();
    const live = parseConfig({ AFFIRM_PUBLIC_API_KEY: "pub", AFFIRM_PRIVATE_API_KEY: "priv", AFFIRM_ENVIRONMENT: "production" });
    expect(affirmApiBase(live)).toBe("https://api.affirm.com");
    expect(publicConfig(live).affirmScriptUrl).toBe("https://cdn1.affirm.com/js/v2/affirm.js");
    expect(affirmApiBase(parseConfig({ AFFIRM_API_BASE: "http://127.0.0.1:9/" }))).toBe("http://127.0.0.1:9");
  });

  it("creates a direct checkout with Basic auth, the spec's items and every amount in cents", async () => {
    const started = await affirm().startPayment(input);

    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/api/v2/checkout/direct" });
    expect(sent?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${FAKE_AFFIRM_PUBLIC_KEY}:${FAKE_AFFIRM_PRIVATE_KEY}`).toString("base64")}`,
    );
    const contact = {
      name: { first: "Grace", last: "Hopper" },
      address: { line1: "200 Congress Ave", city: "Austin", state: "TX", zipcode: "78701", country: "USA" },
      phone_number: "5125550100",
      email: "grace@example.com",
    };
    expect(sent?.body).toEqual({
      merchant: {
        public_api_key: FAKE_AFFIRM_PUBLIC_KEY,
        user_confirmation_url: "http://store.test/api/confirm-order",
        user_confirmation_url_action: "POST",
        user_cancel_url: input.cancelUrl,
        name: "Outdoor Kitchen Outlet",
      },
      shipping: contact,
      billing: contact,
      items: [
        {
          display_name: "Blaze 32 Inch Grill",
          sku: "blaze-3159840",
          unit_price: 249_999,
          qty: 2,
          item_image_url: "http://store.test/images/products/blaze/3159840/1.svg",
          item_url: "http://store.test/product/blaze-3159840",
          categories: [["Grills"], ["Built-In Grills"]],
        },
      ],
      discounts: { PROMO: { discount_amount: 480, discount_display_name: "Promo code" } },
      metadata: { checkout_token: "checkout-token-0001", attempt_id: input.attemptId },
      order_id: input.attemptId,
      currency: "USD",
      shipping_amount: 10_575,
      tax_amount: 41_250,
      total: 551_343,
    });
    const checkoutId = [...fake.checkouts.keys()][0]!;
    expect(started).toEqual({ reference: checkoutId, redirectUrl: `${fake.url}/checkout/${checkoutId}` });
    expect(fake.checkouts.get(checkoutId)).toMatchObject({ amount: 551_343, taxAmount: 41_250 });
  });

  it("throws a PaymentError when Affirm refuses a total its items, shipping, tax and discounts do not add up to", async () => {
    const untaxed = affirm().startPayment({ ...input, taxCents: 0 });
    await expect(untaxed).rejects.toBeInstanceOf(PaymentError);
    await expect(untaxed).rejects.toThrow(/invalid_field \/ invalid_request \/ total must equal .* \(510093\)\. \/ total/);
    expect(fake.checkouts.size).toBe(0);
  });

  it("authorizes a confirmed checkout with the token as transaction_id and the attempt as idempotency key", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.confirm(reference);
    fake.requests.length = 0;

    const transactionId = () => fake.checkouts.get(reference)!.transactionId!;
    expect(await verify(reference)).toEqual({
      status: "approved",
      reference: transactionId(),
      amountCents: 551_343,
      currency: "USD",
      authorizationExpiresAt: new Date(String(fake.transactions.get(transactionId())!.authorization_expiration)),
    });
    expect(transactionId()).not.toBe(reference);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/api/v1/transactions" });
    expect(sent?.body).toEqual({ transaction_id: reference, order_id: input.attemptId });
    expect(sent?.headers["idempotency-key"]).toBe(input.attemptId);
  });

  it("answers the same transaction when the same attempt comes back; another attempt cannot reuse the token", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.confirm(reference);
    const first = await verify(reference);
    expect(await verify(reference)).toEqual(first);
    expectErrorLog();
    const otherAttempt = await affirm().verifyPayment({
      attemptId: "pa_another0000000002",
      reference,
      amountCents: input.amountCents,
      returnParams: token(reference),
    });
    expect(otherAttempt).toMatchObject({ status: "declined", message: AFFIRM_AUTHORIZATION_FAILED });
  });

  it("takes nothing when told not to collect: no authorization is asked for", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.confirm(reference);
    fake.requests.length = 0;
    expect(
      await affirm().verifyPayment({
        attemptId: input.attemptId,
        reference,
        amountCents: 1,
        returnParams: token(reference),
        collect: false,
      }),
    ).toEqual({ status: "uncollected", reference });
    expect(fake.requests).toHaveLength(0);
  });

  it("captures, voids and refunds by Affirm's transaction id, each once", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.confirm(reference);
    const approved = await verify(reference);
    if (approved.status !== "approved") throw new Error(approved.status);
    const paymentId = approved.reference;
    const capture = { attemptId: input.attemptId, paymentId, orderId: "ORDER1", amountCents: 551_343 };
    expect(await affirm().capturePayment!(capture)).toEqual({ status: "captured" });
    expect(await affirm().capturePayment!(capture)).toEqual({ status: "captured" });
    expect(fake.requests.filter((request) => request.path === `/api/v1/transactions/${paymentId}/capture`)).toHaveLength(2);
    expect(fake.transactions.get(paymentId)).toMatchObject({ status: "captured" });
    const refund = { attemptId: input.attemptId, reference, paymentId, amountCents: 551_343 };
    expect(await affirm().refundPayment!(refund)).toMatchObject({ status: "refunded" });
    expect(fake.requests.at(-1)).toMatchObject({ path: `/api/v1/transactions/${paymentId}/refund`, body: { amount: 551_343 } });
    expect(await affirm().refundPayment!(refund)).toMatchObject({ status: "refused" });
  });

  it("reports the amount Affirm authorized, whatever we expected", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.confirm(reference);
    fake.checkouts.get(reference)!.amount = 100;
    expect(await verify(reference)).toMatchObject({ status: "approved", amountCents: 100 });
  });

  it("declines with the spec's message when Affirm refuses to authorize", async () => {
    expectErrorLog();
    const { reference } = await affirm().startPayment(input);
    expect(await verify(reference)).toEqual({ status: "declined", reference, message: AFFIRM_AUTHORIZATION_FAILED });
  });

  it("declines a token that is not this attempt's checkout, without asking Affirm", async () => {
    const { reference } = await affirm().startPayment(input);
    fake.requests.length = 0;
    expect(await verify(reference, token("SOMEONEELSES0001"))).toMatchObject({ status: "declined", message: AFFIRM_AUTHORIZATION_FAILED });
    expect(fake.requests).toHaveLength(0);
  });

  it("without a token authorizes only a checkout the shopper confirmed: pending until then (a post-back that was lost)", async () => {
    const { reference } = await affirm().startPayment(input);
    expect(await verify(reference, new URLSearchParams())).toMatchObject({ status: "pending", reference });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: "/api/v1/transactions" });
    fake.confirm(reference);
    expect(await verify(reference, new URLSearchParams())).toMatchObject({ status: "approved", amountCents: 551_343 });
  });

  it("declines a transaction Affirm holds no loan for", async () => {
    fake.respondWith(() => ({
      status: 200,
      body: { id: "TX-1", checkout_id: "CHK1", status: "voided", amount: 551_343, currency: "USD" },
    }));
    expect(await verify("CHK1")).toMatchObject({ status: "declined" });
  });

  it("throws a PaymentError when a checkout cannot be created: 4xx error body, 500, malformed JSON, time-out", async () => {
    fake.respondWith(400, {
      status_code: 400,
      type: "invalid_request",
      code: "invalid_field",
      message: "total is invalid",
      field: "total",
    });
    await expect(affirm().startPayment(input)).rejects.toThrow(/invalid_field.*total is invalid/);
    fake.respondWith(500, { status_code: 500, type: "server_error", message: "boom" });
    await expect(affirm().startPayment(input)).rejects.toBeInstanceOf(PaymentError);
    fake.respondWith(200, "{not json");
    await expect(affirm().startPayment(input)).rejects.toBeInstanceOf(PaymentError);
    fake.respondWith(200, { checkout_id: "X" });
    await expect(affirm().startPayment(input)).rejects.toThrow(/redirect_url/);
  });

  it("leaves verification to the framework's pending path on 500, malformed JSON, bad keys and time-outs", async () => {
    fake.respondWith(503, { status_code: 503, type: "server_error", message: "down" });
    await expect(verify("CHK1")).rejects.toBeInstanceOf(PaymentError);
    fake.respondWith(200, "<html>");
    await expect(verify("CHK1")).rejects.toBeInstanceOf(PaymentError);
    fake.respondWith(200, { id: "CHK1", status: "authorized" });
    await expect(verify("CHK1")).rejects.toThrow(/amount/);
    fake.respondWith(401, { status_code: 401, type: "unauthorized", code: "public-api-key-invalid", message: "bad key" });
    await expect(verify("CHK1")).rejects.toBeInstanceOf(PaymentError);
  });

  it("gives up after its time-out", async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const slow = createAffirmProvider({
      publicApiKey: "pub",
      privateApiKey: "priv",
      apiBase: `http://127.0.0.1:${port}`,
      merchantName: "Store",
      confirmationUrl: "http://store.test/api/confirm-order",
      timeoutMs: 200,
    });
    try {
      await expect(slow.startPayment(input)).rejects.toThrow(/could not be reached/);
      await expect(
        slow.verifyPayment({ attemptId: input.attemptId, reference: "CHK1", amountCents: 1, returnParams: token("CHK1") }),
      ).rejects.toBeInstanceOf(PaymentError);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
