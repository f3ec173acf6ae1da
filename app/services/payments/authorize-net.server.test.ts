import { afterEach, describe, expect, it, vi } from "vitest";
import {
  API_PATH,
  apiError,
  FAKE_ANET_LOGIN_ID,
  FAKE_ANET_TRANSACTION_KEY,
  startFakeAuthorizeNet,
} from "../../../tests/fakes/authorize-net";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { paymentToStart } from "../../../tests/support/shopping-fixtures";
import { authorizeNetInvoiceNumber, centsToDollars, createAuthorizeNet, type AuthorizeNetOptions } from "./authorize-net.server";
import { isAuthorizeNetSignatureValid } from "./authorize-net-webhook.server";
import { PaymentError } from "./types";
import { logger } from "~/observability/logger.server";

const attemptId = "pa_AbCdEfGhIjKlMnOpQrStUvWx";
/** $6,999.98 + $99.99 shipping + $400.00 tax. */
const input = paymentToStart({
  method: "authorizenet",
  attemptId,
  checkoutToken: "chk_token_1",
  amountCents: 749_997,
  subtotalCents: 699_998,
  shippingCents: 9_999,
  taxCents: 40_000,
  origin: "https://store.example",
});

const fake = await startFakeForFile(startFakeAuthorizeNet);

describe("Authorize.Net Accept Hosted driver", () => {
  afterEach(() => vi.restoreAllMocks());

  const driver = (overrides: Partial<AuthorizeNetOptions> = {}) =>
    createAuthorizeNet({
      apiLoginId: FAKE_ANET_LOGIN_ID,
      transactionKey: FAKE_ANET_TRANSACTION_KEY,
      apiBase: fake.url,
      hostedUrl: fake.hostedUrl,
      baseUrl: "https://store.example/",
      merchantName: "Outdoor Kitchen Outlet",
      ...overrides,
    });

  const verifyInput = (reference: string, params: Record<string, string> = {}) => ({
    attemptId,
    reference,
    amountCents: input.amountCents,
    returnParams: new URLSearchParams({ checkout_token: "chk_token_1", attempt: attemptId, ...params }),
  });

  it("formats cents as dollars exactly and keeps invoice numbers within 20 characters", () => {
    expect(centsToDollars(749_997)).toBe("7499.97");
    expect(centsToDollars(5)).toBe("0.05");
    expect(centsToDollars(100)).toBe("1.00");
    expect(authorizeNetInvoiceNumber(attemptId)).toBe("AbCdEfGhIjKlMnOpQrSt");
  });

  it("requests a form token for the server total with our invoice number, return, cancel and communicator URLs", async () => {
    const started = await driver().startPayment(input);

    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: API_PATH });
    expect(request?.headers["content-type"]).toBe("application/json");
    const [call] = fake.apiCalls();
    expect(call?.name).toBe("getHostedPaymentPageRequest");
    expect(call?.body).toMatchObject({
      merchantAuthentication: { name: FAKE_ANET_LOGIN_ID, transactionKey: FAKE_ANET_TRANSACTION_KEY },
      refId: "AbCdEfGhIjKlMnOpQrSt",
      transactionRequest: {
        transactionType: "authCaptureTransaction",
        amount: "7499.97",
        order: { invoiceNumber: "AbCdEfGhIjKlMnOpQrSt", description: "Order of 2 item(s)" },
        tax: { amount: "400.00", name: "Sales tax", description: "State and local sales tax" },
        shipping: { amount: "99.99", name: "Shipping" },
        customer: { email: "grace@example.com" },
        billTo: { firstName: "Grace", lastName: "Hopper", zip: "78701", country: "US" },
      },
    });
    // The schema's order: tax and shipping after order, before customer.
    expect(Object.keys(call?.body.transactionRequest as object)).toEqual([
      "transactionType",
      "amount",
      "order",
      "tax",
      "shipping",
      "customer",
      "billTo",
    ]);
    const settings = Object.fromEntries(
      (call?.body.hostedPaymentSettings as { setting: { settingName: string; settingValue: string }[] }).setting.map((item) => [
        item.settingName,
        JSON.parse(item.settingValue) as unknown,
      ]),
    );
    expect(settings.hostedPaymentReturnOptions).toEqual({
      showReceipt: false,
      url: input.returnUrl,
      urlText: "Continue",
      cancelUrl: input.cancelUrl,
      cancelUrlText: "Cancel",
    });
    expect(settings.hostedPaymentIFrameCommunicatorUrl).toEqual({ url: "https://store.example/payments/authorizenet/communicator" });

    const session = [...fake.sessions.values()][0]!;
    expect(session).toMatchObject({
      amount: "7499.97",
      tax: { amount: "400.00", name: "Sales tax", description: "State and local sales tax" },
      shipping: { amount: "99.99", name: "Shipping" },
    });
    expect(started.reference).toBe("AbCdEfGhIjKlMnOpQrSt");
    expect(started.clientData).toEqual({ token: session.token, hostedUrl: fake.hostedUrl });
    expect(started.redirectUrl).toBe(`/payments/authorizenet/${attemptId}?${new URLSearchParams({ token: session.token })}`);
  });

  it("sends 0.00 tax and shipping for an untaxed order shipped free", async () => {
    await driver().startPayment({ ...input, subtotalCents: 749_997, shippingCents: 0, taxCents: 0 });
    const session = [...fake.sessions.values()][0]!;
    expect(session.tax).toMatchObject({ amount: "0.00" });
    expect(session.shipping).toMatchObject({ amount: "0.00" });
  });

  it("is refused like the API (E00003) when tax or shipping is out of the schema's order", async () => {
    const hostedPageCall = async (transactionRequest: Record<string, unknown>) => {
      const merchantAuthentication = { name: FAKE_ANET_LOGIN_ID, transactionKey: FAKE_ANET_TRANSACTION_KEY };
      const body = { getHostedPaymentPageRequest: { merchantAuthentication, transactionRequest } };
      const response = await fetch(`${fake.url}${API_PATH}`, { method: "POST", body: JSON.stringify(body) });
      return JSON.parse((await response.text()).replace(/^\uFEFF/, "")) as {
        messages: { resultCode: string; message: { code: string; text: string }[] };
      };
    };
    const order = { invoiceNumber: "INV1" };
    const tax = { amount: "400.00", name: "Sales tax" };
    const shipping = { amount: "99.99", name: "Shipping" };
    const customer = { email: "grace@example.com" };
    const base = { transactionType: "authCaptureTransaction", amount: "7499.97" };

    const taxLast = await hostedPageCall({ ...base, order, customer, tax });
    expect(taxLast.messages.resultCode).toBe("Error");
    expect(taxLast.messages.message[0]).toMatchObject({ code: "E00003" });
    expect(taxLast.messages.message[0]?.text).toContain("has invalid child element 'tax'");
    const shippingFirst = await hostedPageCall({ ...base, order, shipping, tax, customer });
    expect(shippingFirst.messages.message[0]?.text).toContain("has invalid child element 'tax'");
    const beforeOrder = await hostedPageCall({ ...base, tax, order, customer });
    expect(beforeOrder.messages.message[0]?.text).toContain("has invalid child element 'order'");
    const nameFirst = await hostedPageCall({ ...base, order, tax: { name: "Sales tax", amount: "400.00" }, customer });
    expect(nameFirst.messages.message[0]?.text).toContain("The element 'tax' in namespace");
    expect((await hostedPageCall({ ...base, order, tax, shipping, customer })).messages.resultCode).toBe("Ok");
    expect(fake.sessions.size).toBe(1);
  });

  it("finds the transaction by invoice number on a redirect return and approves it for the amount settled", async () => {
    const started = await driver().startPayment(input);
    fake.submitHostedForm(started.clientData!.token!, "pay");

    const verification = await driver().verifyPayment(verifyInput(started.reference));

    expect(verification).toEqual({ status: "approved", reference: started.reference, amountCents: 749_997, currency: "USD" });
    expect(fake.apiCalls().map((call) => call.name)).toEqual([
      "getHostedPaymentPageRequest",
      "getUnsettledTransactionListRequest",
      "getTransactionDetailsRequest",
    ]);
    expect(fake.apiCalls()[1]?.body).toMatchObject({ sorting: { orderBy: "submitTimeUTC", orderDescending: true } });
  });

  it("uses the popup's transId directly, and only for a transaction of our invoice", async () => {
    const started = await driver().startPayment(input);
    const paid = fake.submitHostedForm(started.clientData!.token!, "pay");

    expect(await driver().verifyPayment(verifyInput(started.reference, { trans_id: paid.transId }))).toMatchObject({
      status: "approved",
    });
    expect(fake.apiCalls().map((call) => call.name)).toEqual(["getHostedPaymentPageRequest", "getTransactionDetailsRequest"]);

    // A transId of another order (or an unknown one) is ignored: the invoice number decides.
    const other = await driver().startPayment({ ...input, attemptId: "pa_ZZZZZZZZZZZZZZZZZZZZZZZZ" });
    const otherPaid = fake.submitHostedForm(other.clientData!.token!, "pay");
    const anotherAttempt = await driver().startPayment({ ...input, attemptId: "pa_YYYYYYYYYYYYYYYYYYYYYYYY" });
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    expect(await driver().verifyPayment(verifyInput(anotherAttempt.reference, { trans_id: otherPaid.transId }))).toMatchObject({
      status: "pending",
    });
    expect(await driver().verifyPayment(verifyInput(anotherAttempt.reference, { trans_id: "99999999" }))).toMatchObject({
      status: "pending",
    });
    expect(error).toHaveBeenCalledTimes(2);
  });

  it("looks in the settled batches when the shopper returns after the nightly settlement", async () => {
    const started = await driver().startPayment(input);
    fake.submitHostedForm(started.clientData!.token!, "pay");
    const batchId = fake.settle();

    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "approved", amountCents: 749_997 });
    const calls = fake.apiCalls();
    expect(calls.map((call) => call.name).slice(1)).toEqual([
      "getUnsettledTransactionListRequest",
      "getSettledBatchListRequest",
      "getTransactionListRequest",
      "getTransactionDetailsRequest",
    ]);
    const dates = calls[2]!.body as { firstSettlementDate: string; lastSettlementDate: string };
    expect(dates.firstSettlementDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(dates.lastSettlementDate) - Date.parse(dates.firstSettlementDate)).toBe(3 * 86_400_000);
    expect(calls[3]!.body).toMatchObject({ batchId });
  });

  it("declines a declined transaction with the provider's reason", async () => {
    const started = await driver().startPayment(input);
    fake.submitHostedForm(started.clientData!.token!, "decline");

    expect(await driver().verifyPayment(verifyInput(started.reference))).toEqual({
      status: "declined",
      reference: started.reference,
      message: "Your card was declined. This transaction has been declined.",
    });
  });

  it("prefers the paid transaction when the shopper retried after a decline", async () => {
    const started = await driver().startPayment(input);
    fake.submitHostedForm(started.clientData!.token!, "decline");
    fake.submitHostedForm(started.clientData!.token!, "pay");
    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "approved" });
  });

  it("reports the amount Authorize.Net holds, so a tampered amount can be refused", async () => {
    const started = await driver().startPayment(input);
    const paid = fake.submitHostedForm(started.clientData!.token!, "pay");
    fake.transactions.set(paid.transId, { ...paid, authAmount: 1, settleAmount: 1 });
    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "approved", amountCents: 100 });
  });

  it("counts an authorized transaction as paid and one under review as pending", async () => {
    const started = await driver().startPayment(input);
    const paid = fake.submitHostedForm(started.clientData!.token!, "pay");
    fake.transactions.set(paid.transId, { ...paid, transactionStatus: "authorizedPendingCapture", settleAmount: 0 });
    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "approved", amountCents: 749_997 });
    fake.transactions.set(paid.transId, { ...paid, transactionStatus: "FDSPendingReview" });
    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "pending" });
  });

  it("logs a missing transaction response once and leaves the payment pending", async () => {
    const started = await driver().startPayment(input);
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    expect(await driver().verifyPayment(verifyInput(started.reference))).toMatchObject({ status: "pending" });
    expect(error).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(error.mock.calls[0])).toContain(`no transaction response for invoice ${started.reference}`);
  });

  it("turns an authentication failure into a PaymentError naming E00007", async () => {
    const promise = driver({ transactionKey: "wrong" }).startPayment(input);
    await expect(promise).rejects.toBeInstanceOf(PaymentError);
    await expect(promise).rejects.toThrow(/E00007 User authentication failed/);
    await expect(driver({ transactionKey: "wrong" }).verifyPayment(verifyInput("AbCdEfGhIjKlMnOpQrSt"))).rejects.toThrow(/E00007/);
  });

  it("turns an error result, a 500, malformed JSON and a missing token into PaymentErrors", async () => {
    fake.respondWith(() => apiError("E00027", "The transaction amount is invalid."));
    await expect(driver().startPayment(input)).rejects.toThrow(/E00027/);
    fake.respondWith(500, { error: "boom" });
    await expect(driver().startPayment(input)).rejects.toMatchObject({ name: "PaymentError", status: 500 });
    fake.respondWith(200, "\uFEFF{not json");
    await expect(driver().startPayment(input)).rejects.toThrow(/malformed JSON/);
    fake.respondWith(200, "\uFEFF" + JSON.stringify({ messages: { resultCode: "Ok", message: [] } }));
    await expect(driver().startPayment(input)).rejects.toThrow(/without a form token/);
    fake.respondWith(200, "\uFEFF" + JSON.stringify({ transactions: [{ transId: 5 }], messages: { resultCode: "Ok" } }));
    await expect(driver().verifyPayment(verifyInput("AbCdEfGhIjKlMnOpQrSt"))).rejects.toThrow(/cannot read/);
  });

  it("gives up after its time-out", async () => {
    fake.respondWith(() => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: {} }), 2_000)));
    await expect(driver({ timeoutMs: 100 }).startPayment(input)).rejects.toThrow(/could not be reached/);
  });
});

describe("Authorize.Net webhook signature", () => {
  // Computed outside the store with the openssl CLI, the key as its text, as Authorize.Net does:
  //   printf '%s' "$BODY" | openssl dgst -sha512 -hmac "$KEY"
  // and the old way, the key's hex decoded to bytes: ... | openssl dgst -sha512 -mac HMAC -macopt hexkey:$KEY
  const body =
    '{"notificationId":"7201C905-B01E-4622-B807-AC2B646A3815","eventType":"net.authorize.payment.authcapture.created",' +
    '"eventDate":"2026-11-26T18:42:17.0731943Z","webhookId":"3B0A6E72-2A47-4C0B-9B2F-52D5C1E0A9D4","payload":{"responseCode":1,' +
    '"authCode":"QHX4KC","avsResponse":"Y","authAmount":7499.97,"invoiceNumber":"AbCdEfGhIjKlMnOpQrSt","entityName":"transaction",' +
    '"id":"60245071188"}}';
  const key =
    "FADCFA268DEFF249064F8C7E0BC2822F804851B8611B97B230AEA814FDDDBC40BDF5D997181E4DDED8B69447B8903253DF8AD5E19B45DF7318667F1C4AB5BE82";
  const signedWithKeyText =
    "FD454761D7AAAE6FB10546B95E08AD72908DB56113696061C010AE590A8F7E924B22F8C6B9591AAB06BF267FB71F40EA681AC73DF35E2656724B8345FBBFF292";
  const signedWithHexDecodedKey =
    "7E0A2AFFBBFE3DB59F631E1072F68241B6D92B0AE3CFAD9F61D657365804386E5D5129814E2B88B08C104465D5AFEF74D65953481B7C392E485A43FF77993A0A";

  it("accepts Authorize.Net's signature, keyed with the signature key's text, in either case", () => {
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithKeyText}`, key)).toBe(true);
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithKeyText.toLowerCase()}`, key)).toBe(true);
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithKeyText}`, ` ${key}\n`)).toBe(true);
  });

  it("refuses the same body signed with the hex-decoded key, another body, and malformed headers or keys", () => {
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithHexDecodedKey}`, key)).toBe(false);
    expect(isAuthorizeNetSignatureValid(body.replace("7499.97", "1.00"), `sha512=${signedWithKeyText}`, key)).toBe(false);
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithKeyText}`, key.toLowerCase())).toBe(false);
    for (const header of [
      null,
      "",
      signedWithKeyText,
      `sha256=${signedWithKeyText}`,
      `sha512=${signedWithKeyText.slice(2)}`,
      "sha512=zz",
    ]) {
      expect(isAuthorizeNetSignatureValid(body, header, key)).toBe(false);
    }
    expect(isAuthorizeNetSignatureValid(body, `sha512=${signedWithKeyText}`, "  ")).toBe(false);
  });
});
