import { describe, expect, it } from "vitest";
import { parseForm, signedEvent, startFakeStripe, stripeError, stripeSignature } from "../../../tests/fakes/stripe";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { paymentToStart } from "../../../tests/support/shopping-fixtures";
import { createStripeProvider, paymentReferenceOfEvent, stripeConnection, verifiedStripeEvent } from "./stripe.server";
import { PaymentError, type PaymentFlow, type StartPaymentInput } from "./types";

const input = (flow: PaymentFlow, overrides: Partial<StartPaymentInput> = {}) =>
  paymentToStart({
    method: "stripe",
    attemptId: "pa_attempt0000001",
    checkoutToken: "chk_token_0001",
    amountCents: 749_997,
    subtotalCents: 699_998,
    shippingCents: 9_999,
    taxCents: 40_000,
    flow,
    ...overrides,
  });
const metadata = { checkout_token: "chk_token_0001", attempt_id: "pa_attempt0000001", tax_cents: "40000" };

const form = (rawBody: string) => parseForm(rawBody) as Record<string, unknown>;

const fake = await startFakeForFile(startFakeStripe);

describe("Stripe driver against the fake Stripe API", () => {
  const provider = (timeoutMs = 2_000) =>
    createStripeProvider({
      secretKey: "sk_test_contract",
      publishableKey: "pk_test_contract",
      apiBase: fake.url,
      timeoutMs,
      maxNetworkRetries: 0,
    });

  it("reads host, port and protocol from STRIPE_API_BASE", () => {
    expect(stripeConnection("http://127.0.0.1:4242")).toEqual({ host: "127.0.0.1", port: 4242, protocol: "http" });
    expect(stripeConnection("https://api.stripe.com")).toEqual({ host: "api.stripe.com", port: 443, protocol: "https" });
    expect(stripeConnection(undefined)).toEqual({});
  });

  describe("embedded flow: a PaymentIntent for the Payment Element", () => {
    it("creates it for the server amount in cents, USD, with the attempt id as idempotency key and our metadata", async () => {
      const started = await provider().startPayment(input("embedded"));

      expect(started.reference).toMatch(/^pi_/);
      expect(started.clientData).toEqual({
        clientSecret: expect.stringMatching(/^pi_.+_secret_/),
        publishableKey: "pk_test_contract",
        returnUrl: input("embedded").returnUrl,
      });
      const [request] = fake.requests;
      expect(request).toMatchObject({ method: "POST", path: "/v1/payment_intents" });
      expect(request?.headers.authorization).toBe("Bearer sk_test_contract");
      expect(request?.headers["idempotency-key"]).toBe("pa_attempt0000001");
      expect(form(request!.rawBody)).toMatchObject({
        amount: "749997",
        currency: "usd",
        receipt_email: "grace@example.com",
        automatic_payment_methods: { enabled: "true" },
        metadata,
      });
      expect(fake.paymentIntents.get(started.reference)?.metadata).toEqual(metadata);
    });

    it("gets the same PaymentIntent back when the same attempt is started twice (idempotency key)", async () => {
      const first = await provider().startPayment(input("embedded"));
      const second = await provider().startPayment(input("embedded"));
      expect(second.reference).toBe(first.reference);
      expect(fake.paymentIntents.size).toBeGreaterThanOrEqual(1);
    });

    it("verifies: approved once succeeded, with the amount received and currency", async () => {
      const { reference } = await provider().startPayment(input("embedded"));
      const verify = () =>
        provider().verifyPayment({ attemptId: "pa_attempt0000001", reference, amountCents: 749_997, returnParams: new URLSearchParams() });

      expect(await verify()).toEqual({ status: "pending", reference });
      fake.succeedPaymentIntent(reference);
      expect(await verify()).toEqual({ status: "approved", reference, amountCents: 749_997, currency: "usd" });
      expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/payment_intents/${reference}` });
      // A second verify of a succeeded payment still says approved.
      expect((await verify()).status).toBe("approved");
    });

    it("verifies: declined with Stripe's message after a declined card", async () => {
      const { reference } = await provider().startPayment(input("embedded"));
      fake.declinePaymentIntent(reference);
      expect(
        await provider().verifyPayment({ attemptId: "pa_attempt0000001", reference, amountCents: 1, returnParams: new URLSearchParams() }),
      ).toEqual({ status: "declined", reference, message: "Your card was declined." });
    });

    it("reports what Stripe reports when the amount differs (the framework refuses it)", async () => {
      const { reference } = await provider().startPayment(input("embedded"));
      fake.succeedPaymentIntent(reference);
      fake.paymentIntents.get(reference)!.amount_received = 100;
      const verification = await provider().verifyPayment({
        attemptId: "pa_attempt0000001",
        reference,
        amountCents: 749_997,
        returnParams: new URLSearchParams(),
      });
      expect(verification).toMatchObject({ status: "approved", amountCents: 100 });
    });

    it("refuses a PaymentIntent made for another attempt", async () => {
      const { reference } = await provider().startPayment(input("embedded"));
      fake.succeedPaymentIntent(reference);
      const verification = await provider().verifyPayment({
        attemptId: "pa_someoneelse0001",
        reference,
        amountCents: 749_997,
        returnParams: new URLSearchParams(),
      });
      expect(verification.status).toBe("declined");
    });
  });

  describe("redirect flow: a Checkout Session on Stripe's hosted page", () => {
    it("creates a payment session with one line for the server total, success and cancel URLs and metadata", async () => {
      const started = await provider().startPayment(input("redirect"));

      expect(started.reference).toMatch(/^cs_/);
      expect(started.redirectUrl).toBe(`${fake.url}/c/pay/${started.reference}`);
      const [request] = fake.requests;
      expect(request).toMatchObject({ method: "POST", path: "/v1/checkout/sessions" });
      expect(request?.headers["idempotency-key"]).toBe("pa_attempt0000001");
      const body = form(request!.rawBody);
      expect(body).toMatchObject({
        mode: "payment",
        line_items: {
          0: { quantity: "1", price_data: { currency: "usd", unit_amount: "749997", product_data: { name: "Order of 2 item(s)" } } },
        },
        success_url: `${input("redirect").returnUrl}&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: "http://store.test/checkout?checkout=chk_token_0001",
        client_reference_id: "pa_attempt0000001",
        metadata,
        payment_intent_data: { metadata },
      });
      // The tax is in the one line's amount; the metadata only tells the dashboard how much of it.
      expect(Object.keys(body.line_items as object)).toEqual(["0"]);
      const session = fake.checkoutSessions.get(started.reference)!;
      expect(session).toMatchObject({ amount_total: 749_997, metadata });
      fake.completeCheckoutSession(started.reference);
      expect(fake.paymentIntents.get(session.payment_intent!)?.metadata).toEqual(metadata);
    });

    it("verifies: pending until paid, then approved for the session's total", async () => {
      const { reference } = await provider().startPayment(input("redirect"));
      const verify = () =>
        provider().verifyPayment({ attemptId: "pa_attempt0000001", reference, amountCents: 749_997, returnParams: new URLSearchParams() });
      expect(await verify()).toEqual({ status: "pending", reference });
      fake.completeCheckoutSession(reference);
      expect(await verify()).toEqual({ status: "approved", reference, amountCents: 749_997, currency: "usd" });
      expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/checkout/sessions/${reference}` });
    });

    it("verifies: an expired session is declined", async () => {
      const { reference } = await provider().startPayment(input("redirect"));
      fake.checkoutSessions.get(reference)!.status = "expired";
      const verification = await provider().verifyPayment({
        attemptId: "pa_attempt0000001",
        reference,
        amountCents: 1,
        returnParams: new URLSearchParams(),
      });
      expect(verification.status).toBe("declined");
    });
  });

  describe("failures become PaymentErrors (the payment stays pending, nothing recorded)", () => {
    const failures: Array<[string, () => void, number | undefined]> = [
      [
        "a 400 with Stripe's error body",
        () => fake.respondWith(() => stripeError(400, "invalid_request_error", "Amount must be at least $0.50 usd")),
        400,
      ],
      ["a 401 for a bad key", () => fake.respondWith(() => stripeError(401, "invalid_request_error", "Invalid API Key provided.")), 401],
      ["a 500", () => fake.respondWith(() => stripeError(500, "api_error", "Something went wrong on Stripe's end.")), 500],
      ["malformed JSON", () => fake.respondWith(200, "{not json"), undefined],
      ["a body without id", () => fake.respondWith(200, { object: "payment_intent" }), undefined],
    ];
    for (const [name, arrange, status] of failures) {
      it(`on start and verify: ${name}`, async () => {
        arrange();
        const start = provider().startPayment(input("embedded"));
        await expect(start).rejects.toBeInstanceOf(PaymentError);
        const error = (await start.catch((failure: unknown) => failure)) as PaymentError;
        expect(error.provider).toBe("stripe");
        if (status) expect(error.status).toBe(status);
        if (name !== "a body without id") {
          await expect(
            provider().verifyPayment({
              attemptId: "pa_attempt0000001",
              reference: "pi_123",
              amountCents: 1,
              returnParams: new URLSearchParams(),
            }),
          ).rejects.toBeInstanceOf(PaymentError);
        }
      });
    }

    it("on a time-out", async () => {
      fake.respondWith(async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return { status: 200, body: {} };
      });
      await expect(provider(200).startPayment(input("redirect"))).rejects.toBeInstanceOf(PaymentError);
    });

    it("a 404 for an unknown object on verify", async () => {
      await expect(
        provider().verifyPayment({
          attemptId: "pa_attempt0000001",
          reference: "pi_unknown",
          amountCents: 1,
          returnParams: new URLSearchParams(),
        }),
      ).rejects.toMatchObject({ name: "PaymentError", status: 404 });
    });

    it("never sends a request for a reference that is not a Stripe id", async () => {
      const verification = await provider().verifyPayment({
        attemptId: "pa_attempt0000001",
        reference: "../../v1/charges",
        amountCents: 1,
        returnParams: new URLSearchParams(),
      });
      expect(verification.status).toBe("declined");
      expect(fake.requests).toHaveLength(0);
    });
  });
});

describe("Stripe webhook signatures", () => {
  const secret = "whsec_contract_secret";
  const intent = { id: "pi_webhook0001", object: "payment_intent", status: "succeeded" };

  it("accepts an event signed with the endpoint secret and names its payment", async () => {
    const { payload, signature } = signedEvent("payment_intent.succeeded", intent, secret);
    const event = await verifiedStripeEvent(payload, signature, secret);
    expect(event?.type).toBe("payment_intent.succeeded");
    expect(paymentReferenceOfEvent(event!)).toBe("pi_webhook0001");
  });

  it("names the session of checkout.session.completed and ignores other events", async () => {
    const completed = signedEvent("checkout.session.completed", { id: "cs_test_1", object: "checkout.session" }, secret);
    expect(paymentReferenceOfEvent((await verifiedStripeEvent(completed.payload, completed.signature, secret))!)).toBe("cs_test_1");
    const refunded = signedEvent("charge.refunded", { id: "ch_1" }, secret);
    expect(paymentReferenceOfEvent((await verifiedStripeEvent(refunded.payload, refunded.signature, secret))!)).toBeNull();
  });

  it("refuses a wrong secret, a changed body, a missing header and an old timestamp", async () => {
    const { payload, signature } = signedEvent("payment_intent.succeeded", intent, secret);
    expect(await verifiedStripeEvent(payload, signature, "whsec_other")).toBeNull();
    expect(await verifiedStripeEvent(payload.replace("pi_webhook0001", "pi_webhook0002"), signature, secret)).toBeNull();
    expect(await verifiedStripeEvent(payload, null, secret)).toBeNull();
    const old = Math.floor(Date.now() / 1000) - 600;
    expect(await verifiedStripeEvent(payload, stripeSignature(payload, secret, old), secret)).toBeNull();
  });
});
