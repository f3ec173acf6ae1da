import { describe, expect, it } from "vitest";
import { startFakePayPal, unprocessable } from "../../../tests/fakes/paypal";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { paypalDriverKit, paypalInput as input } from "../../../tests/support/paypal-driver";
import {
  PAYPAL_CAPTURE_DECLINED_MESSAGE,
  PAYPAL_DECLINED_MESSAGE,
  PAYPAL_OTHER_CHECKOUT_MESSAGE,
  PAYPAL_UNKNOWN_ORDER_MESSAGE,
  PAYPAL_VOIDED_MESSAGE,
} from "./paypal.server";

const fake = await startFakeForFile(startFakePayPal);
const { paypal, verify, sent, ordersAnswer } = paypalDriverKit(fake);

describe("PayPal driver: verifying a payment captures an approved order once and judges what PayPal holds", () => {
  it("is pending while the shopper has not approved", async () => {
    const { reference } = await paypal().startPayment(input);
    expect(await verify(reference)).toEqual({ status: "pending", reference, message: "PayPal order is PAYER_ACTION_REQUIRED." });
    expect(sent("POST", `/v2/checkout/orders/${reference}/capture`)).toHaveLength(0);
  });

  it("captures an approved order once and reports the captured amount; a second verify still answers approved", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);

    const approved = { status: "approved", reference, amountCents: 1234567, currency: "USD" };
    expect(await verify(reference)).toEqual(approved);
    const [capture] = sent("POST", `/v2/checkout/orders/${reference}/capture`);
    expect(capture?.headers["paypal-request-id"]).toBe(`capture-${input.attemptId}`);
    expect(capture?.headers.authorization).toMatch(/^Bearer /);

    expect(await verify(reference)).toEqual(approved);
    expect(sent("POST", `/v2/checkout/orders/${reference}/capture`)).toHaveLength(1);
  });

  it("reads the capture from the order when a retried capture answers ORDER_ALREADY_CAPTURED", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);
    await verify(reference);
    // Another process saw the order APPROVED just before this one captured it.
    const order = fake.paypal.orders.get(reference)!;
    let firstGet = true;
    ordersAnswer((request) => {
      if (request.method === "GET" && firstGet) {
        firstGet = false;
        return { status: 200, body: { id: order.id, status: "APPROVED", links: [] } };
      }
      return fake.answer(request);
    });
    expect(await verify(reference, "pa_attempt0000000001")).toEqual({
      status: "approved",
      reference,
      amountCents: 1234567,
      currency: "USD",
    });
    expect(sent("GET", `/v2/checkout/orders/${reference}`)).toHaveLength(2);
  });

  it("reports the amount PayPal captured, even when it differs from ours (the framework then refuses it)", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.paypal.capturedValueOverride = "1.00";
    fake.approveOrder(reference);
    expect(await verify(reference)).toEqual({ status: "approved", reference, amountCents: 100, currency: "USD" });
  });

  it("declines with a readable message when the capture answers INSTRUMENT_DECLINED", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.paypal.captureOutcome = "instrument-declined";
    fake.approveOrder(reference);
    expect(await verify(reference)).toEqual({ status: "declined", reference, message: PAYPAL_DECLINED_MESSAGE });
  });

  it("declines a capture PayPal declined, waits on a pending one, and declines a voided order", async () => {
    const declined = await paypal().startPayment(input);
    fake.paypal.captureOutcome = "capture-declined";
    fake.approveOrder(declined.reference);
    expect(await verify(declined.reference)).toEqual({
      status: "declined",
      reference: declined.reference,
      message: PAYPAL_CAPTURE_DECLINED_MESSAGE,
    });

    const pending = await paypal().startPayment({ ...input, attemptId: "pa_attempt0000000002" });
    fake.paypal.captureOutcome = "pending";
    fake.approveOrder(pending.reference);
    expect(await verify(pending.reference, "pa_attempt0000000002")).toEqual({
      status: "pending",
      reference: pending.reference,
      message: "PayPal capture is pending (PENDING_REVIEW).",
    });

    const voided = await paypal().startPayment({ ...input, attemptId: "pa_attempt0000000003" });
    fake.paypal.orders.get(voided.reference)!.status = "VOIDED";
    expect(await verify(voided.reference, "pa_attempt0000000003")).toEqual({
      status: "declined",
      reference: voided.reference,
      message: PAYPAL_VOIDED_MESSAGE,
    });
  });

  it("declines another 422 refusal with PayPal's description", async () => {
    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);
    ordersAnswer((request) =>
      request.path.endsWith("/capture")
        ? unprocessable("PAYER_CANNOT_PAY", "Combination of payer and payee settings mean that this buyer cannot pay this seller.")
        : fake.answer(request),
    );
    expect(await verify(reference)).toEqual({
      status: "declined",
      reference,
      message: "Combination of payer and payee settings mean that this buyer cannot pay this seller.",
    });
  });

  it("declines an order PayPal does not know, and one made for another attempt", async () => {
    expect(await verify("NOSUCHORDER123")).toEqual({
      status: "declined",
      reference: "NOSUCHORDER123",
      message: PAYPAL_UNKNOWN_ORDER_MESSAGE,
    });

    const { reference } = await paypal().startPayment(input);
    fake.approveOrder(reference);
    expect(await verify(reference, "pa_someoneelse000001")).toEqual({
      status: "declined",
      reference,
      message: PAYPAL_OTHER_CHECKOUT_MESSAGE,
    });
  });
});
