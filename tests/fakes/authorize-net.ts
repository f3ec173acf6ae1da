import { createHmac, randomBytes } from "node:crypto";
import { isRecord, startFakeHttpServer, type FakeResponse, type FakeServer, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/**
 * A local stand-in for Authorize.Net (https://developer.authorize.net/api/reference/):
 * the JSON API at POST /xml/v1/request.api (getHostedPaymentPageRequest,
 * getTransactionDetailsRequest, getUnsettledTransactionListRequest), answered
 * with the byte order mark the real API puts before its JSON, and the Accept
 * Hosted payment form at POST /payment/payment (a `token` form field) with
 * Pay, Decline and Cancel. Without a frame (or without script) the form sends
 * the shopper to the return or cancel URL; inside our popup's iframe it loads
 * the iframe communicator page with `action=transactResponse&response={...}`
 * or `action=cancel`, as Accept Hosted does. The hosted page request's
 * transactionRequest is checked against the schema's element order (E00003),
 * and its tax and shipping elements are kept on the session.
 */
export const FAKE_ANET_LOGIN_ID = "fake-login-id";
export const FAKE_ANET_TRANSACTION_KEY = "fake-transaction-key";
export const API_PATH = "/xml/v1/request.api";
/** The merchant's Signature Key (128 hex characters, keyed as text), for AUTHORIZE_NET_SIGNATURE_KEY. */
export const FAKE_ANET_SIGNATURE_KEY = "A1B2C3D4E5F60718".repeat(8);

/** The store's settings that point its Authorize.Net driver and hosted form at this fake. */
export function fakeAuthorizeNetSettings(fake: FakeAuthorizeNet): Record<string, string> {
  return {
    AUTHORIZE_NET_API_LOGIN_ID: FAKE_ANET_LOGIN_ID,
    AUTHORIZE_NET_TRANSACTION_KEY: FAKE_ANET_TRANSACTION_KEY,
    AUTHORIZE_NET_API_BASE: fake.url,
    AUTHORIZE_NET_HOSTED_URL: fake.hostedUrl,
  };
}

/** Where a webhook goes: the store's URL, or a route action called in the test's process. */
export type WebhookTarget = string | ((request: Request) => Promise<Response>);
export const HOSTED_PATH = "/payment/payment";

/** An extendedAmountType element (tax, duty, shipping) as sent. */
export interface FakeExtendedAmount {
  amount: string;
  name?: string;
  description?: string;
}

export interface FakeHostedSession {
  token: string;
  amount: string;
  tax: FakeExtendedAmount | undefined;
  shipping: FakeExtendedAmount | undefined;
  invoiceNumber: string;
  refId: string | undefined;
  returnUrl: string;
  cancelUrl: string;
  communicatorUrl: string | undefined;
}

export interface FakeTransaction {
  transId: string;
  transactionStatus: string;
  responseCode: number;
  responseReasonDescription: string;
  authAmount: number;
  settleAmount: number;
  invoiceNumber: string;
  submitTimeUTC: string;
}

export interface FakeAuthorizeNet extends FakeServer {
  /** The hosted form's address, for AUTHORIZE_NET_HOSTED_URL. */
  readonly hostedUrl: string;
  readonly sessions: Map<string, FakeHostedSession>;
  readonly transactions: Map<string, FakeTransaction>;
  /** What the shopper's Pay or Decline on the hosted form does, without a browser. */
  submitHostedForm(token: string, decision: "pay" | "decline"): FakeTransaction;
  /** The nightly settlement: captured transactions go into a new settled batch; returns its batchId. */
  settle(): string;
  /** Back to answering like Authorize.Net after respondWith, keeping sessions and transactions. */
  answerNormally(): void;
  /** The API requests only (the hosted form's posts left out), with their call name. */
  apiCalls(): { name: string; body: Record<string, unknown> }[];
  /**
   * Sends a `net.authorize.payment.*` notification about a transaction, signed as Authorize.Net
   * does (X-ANET-Signature: sha512=upper-case HMAC-SHA512 of the body keyed with the signature key's
   * text, not its hex decoded); "wrong" signs with another key, "none" sends no signature.
   */
  sendWebhook(
    target: WebhookTarget,
    eventType: string,
    transId: string,
    options?: { signature?: "valid" | "wrong" | "none" },
  ): Promise<Response>;
}

export async function startFakeAuthorizeNet(): Promise<FakeAuthorizeNet> {
  const sessions = new Map<string, FakeHostedSession>();
  const transactions = new Map<string, FakeTransaction>();
  const batches = new Map<string, { settlementTimeUTC: string; transIds: string[] }>();
  let nextTransId = 60_000_000_001;
  let nextBatchId = 10_000_001;

  function settle(): string {
    const batchId = String(nextBatchId++);
    const settled = [...transactions.values()].filter((item) => item.transactionStatus === "capturedPendingSettlement");
    for (const item of settled) item.transactionStatus = "settledSuccessfully";
    batches.set(batchId, { settlementTimeUTC: new Date().toISOString(), transIds: settled.map((item) => item.transId) });
    return batchId;
  }

  function submitHostedForm(token: string, decision: "pay" | "decline"): FakeTransaction {
    const session = sessions.get(token);
    if (!session) throw new Error(`unknown form token ${token.slice(0, 12)}...`);
    const amount = Number(session.amount);
    const paid = decision === "pay";
    const transaction: FakeTransaction = {
      transId: String(nextTransId++),
      transactionStatus: paid ? "capturedPendingSettlement" : "declined",
      responseCode: paid ? 1 : 2,
      responseReasonDescription: paid ? "Approval" : "This transaction has been declined.",
      authAmount: amount,
      settleAmount: paid ? amount : 0,
      invoiceNumber: session.invoiceNumber,
      submitTimeUTC: new Date().toISOString(),
    };
    transactions.set(transaction.transId, transaction);
    return transaction;
  }

  function answer(request: RecordedRequest): FakeResponse {
    if (request.method === "POST" && request.path === API_PATH) return answerApi(request.body);
    if (request.method === "POST" && request.path === HOSTED_PATH) return hostedForm(new URLSearchParams(request.rawBody));
    if (request.method === "POST" && request.path === `${HOSTED_PATH}/decide`) return decide(new URLSearchParams(request.rawBody));
    return { status: 404, body: "Not found" };
  }

  function answerApi(body: unknown): FakeResponse {
    if (!isRecord(body)) return apiError("E00003", "Root element is missing.");
    const [name] = Object.keys(body);
    const call = name ? body[name] : undefined;
    if (!name || !isRecord(call)) return apiError("E00003", "Root element is missing.");
    const auth = call.merchantAuthentication;
    if (!isRecord(auth) || auth.name !== FAKE_ANET_LOGIN_ID || auth.transactionKey !== FAKE_ANET_TRANSACTION_KEY) {
      return apiError("E00007", "User authentication failed due to invalid authentication values.");
    }
    switch (name) {
      case "getHostedPaymentPageRequest":
        return hostedPaymentPage(call);
      case "getTransactionDetailsRequest": {
        const transaction = transactions.get(String(call.transId ?? ""));
        if (!transaction) return apiError("E00040", "The record cannot be found.");
        return apiOk({ transaction: transactionDetails(transaction) });
      }
      case "getUnsettledTransactionListRequest": {
        const list = [...transactions.values()].filter((item) => item.transactionStatus !== "settledSuccessfully");
        const sorting = isRecord(call.sorting) ? call.sorting : {};
        list.sort((a, b) => a.submitTimeUTC.localeCompare(b.submitTimeUTC) || Number(a.transId) - Number(b.transId));
        if (sorting.orderDescending === true || sorting.orderDescending === "true") list.reverse();
        if (list.length === 0) return apiOk({}, { code: "I00004", text: "No records found." });
        return apiOk({ transactions: list.map(transactionSummary), totalNumInResultSet: list.length });
      }
      case "getSettledBatchListRequest": {
        const first = Date.parse(String(call.firstSettlementDate ?? ""));
        const last = Date.parse(String(call.lastSettlementDate ?? ""));
        if (Number.isNaN(first) || Number.isNaN(last) || last < first) return apiError("E00003", "Invalid settlement dates.");
        const batchList = [...batches.entries()]
          .filter(([, batch]) => Date.parse(batch.settlementTimeUTC) >= first && Date.parse(batch.settlementTimeUTC) <= last + 60_000)
          .map(([batchId, batch]) => ({
            batchId,
            settlementTimeUTC: batch.settlementTimeUTC,
            settlementTimeLocal: batch.settlementTimeUTC.replace("Z", ""),
            settlementState: "settledSuccessfully",
            paymentMethod: "creditCard",
            marketType: "eCommerce",
            product: "Card Not Present",
          }));
        if (batchList.length === 0) return apiOk({}, { code: "I00004", text: "No records found." });
        return apiOk({ batchList });
      }
      case "getTransactionListRequest": {
        const batch = batches.get(String(call.batchId ?? ""));
        if (!batch) return apiError("E00040", "The record cannot be found.");
        const list = batch.transIds.map((transId) => transactions.get(transId)!).reverse();
        if (list.length === 0) return apiOk({}, { code: "I00004", text: "No records found." });
        return apiOk({ transactions: list.map(transactionSummary), totalNumInResultSet: list.length });
      }
      case "createTransactionRequest":
        return createTransaction(call);
      default:
        return apiError("E00003", `The element '${name}' is not supported by this fake.`);
    }
  }

  /** voidTransaction before settlement, refundTransaction (last four digits of the card, in full) after. */
  function createTransaction(call: Record<string, unknown>): FakeResponse {
    const request = isRecord(call.transactionRequest) ? call.transactionRequest : {};
    const original = transactions.get(String(request.refTransId ?? ""));
    const refuse = (errorText: string) =>
      withBom({
        transactionResponse: { responseCode: "3", transId: "0", errors: [{ errorCode: "16", errorText }] },
        messages: { resultCode: "Error", message: [{ code: "E00027", text: "The transaction was unsuccessful." }] },
      });
    if (!original) return refuse("The transaction cannot be found.");
    if (request.transactionType === "voidTransaction") {
      if (original.transactionStatus !== "capturedPendingSettlement" && original.transactionStatus !== "authorizedPendingCapture") {
        return refuse("A void can only be made on an unsettled transaction.");
      }
      original.transactionStatus = "voided";
      return apiOk({ transactionResponse: { responseCode: "1", transId: original.transId } });
    }
    if (request.transactionType === "refundTransaction") {
      const card = isRecord(request.payment) && isRecord(request.payment.creditCard) ? request.payment.creditCard : {};
      if (original.transactionStatus !== "settledSuccessfully")
        return refuse("The referenced transaction does not meet the criteria for issuing a credit.");
      if (card.cardNumber !== "1111") return refuse("The credit card number is invalid.");
      if (Number(request.amount) > original.settleAmount)
        return refuse("The sum of credits against the referenced transaction would exceed original debit amount.");
      const refund: FakeTransaction = {
        ...original,
        transId: String(nextTransId++),
        transactionStatus: "refundPendingSettlement",
        settleAmount: Number(request.amount),
        submitTimeUTC: new Date().toISOString(),
        invoiceNumber: `refund-${original.invoiceNumber}`,
      };
      transactions.set(refund.transId, refund);
      return apiOk({ transactionResponse: { responseCode: "1", transId: refund.transId } });
    }
    return apiError("E00003", "Unsupported transaction type in this fake.");
  }

  async function sendWebhook(
    target: WebhookTarget,
    eventType: string,
    transId: string,
    { signature = "valid" }: { signature?: "valid" | "wrong" | "none" } = {},
  ): Promise<Response> {
    const transaction = transactions.get(transId);
    const body = JSON.stringify({
      notificationId: randomBytes(16).toString("hex"),
      eventType,
      eventDate: new Date().toISOString(),
      webhookId: "fake-webhook-id",
      payload: {
        responseCode: transaction?.responseCode ?? 1,
        authCode: "ABC123",
        avsResponse: "Y",
        authAmount: transaction?.authAmount ?? 0,
        invoiceNumber: transaction?.invoiceNumber,
        entityName: "transaction",
        id: transId,
      },
    });
    const key = signature === "wrong" ? "00".repeat(64) : FAKE_ANET_SIGNATURE_KEY;
    const hmac = createHmac("sha512", key).update(body).digest("hex").toUpperCase();
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signature !== "none") headers["x-anet-signature"] = `sha512=${hmac}`;
    const init = { method: "POST", headers, body };
    return typeof target === "string" ? fetch(target, init) : target(new Request("http://store.test/webhook", init));
  }

  function hostedPaymentPage(call: Record<string, unknown>): FakeResponse {
    const transactionRequest = isRecord(call.transactionRequest) ? call.transactionRequest : {};
    const schemaError = elementOrderError("transactionRequest", transactionRequest, TRANSACTION_REQUEST_ELEMENTS);
    if (schemaError) return schemaError;
    for (const element of ["tax", "shipping"]) {
      const error = extendedAmountError(element, transactionRequest[element]);
      if (error) return error;
    }
    const order = isRecord(transactionRequest.order) ? transactionRequest.order : {};
    const amount = String(transactionRequest.amount ?? "");
    const refId = typeof call.refId === "string" ? call.refId : undefined;
    const invoiceNumber = String(order.invoiceNumber ?? "");
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) {
      return apiError("E00027", "The transaction amount is invalid.");
    }
    if (invoiceNumber.length > 20 || (refId?.length ?? 0) > 20) {
      return apiError(
        "E00003",
        "The 'AnetApi/xml/v1/schema/AnetApiSchema.xsd:invoiceNumber' element is invalid - The actual length is greater than the MaxLength value.",
      );
    }
    const settings = readSettings(call.hostedPaymentSettings);
    const returnOptions = settings.get("hostedPaymentReturnOptions") ?? {};
    const communicator = settings.get("hostedPaymentIFrameCommunicatorUrl");
    const token = randomBytes(96).toString("base64");
    sessions.set(token, {
      token,
      amount,
      tax: transactionRequest.tax as FakeExtendedAmount | undefined,
      shipping: transactionRequest.shipping as FakeExtendedAmount | undefined,
      invoiceNumber,
      refId,
      returnUrl: String(returnOptions.url ?? ""),
      cancelUrl: String(returnOptions.cancelUrl ?? ""),
      communicatorUrl: typeof communicator?.url === "string" ? communicator.url : undefined,
    });
    return apiOk({ token }, undefined, refId);
  }

  function hostedForm(form: URLSearchParams): FakeResponse {
    const session = sessions.get(form.get("token") ?? "");
    if (!session) return html(400, "<h1>Error</h1><p>Missing or invalid token.</p>");
    const hidden = `<input type="hidden" name="token" value="${escapeHtml(session.token)}">`;
    return html(
      200,
      `<h1>Fake Authorize.Net payment form</h1>
<p>Amount: <strong data-testid="anet-amount">$${escapeHtml(session.amount)}</strong> · Invoice ${escapeHtml(session.invoiceNumber)}</p>
<form method="post" action="${HOSTED_PATH}/decide">${hidden}
<input type="hidden" name="framed" value="0">
<button type="submit" name="decision" value="pay">Pay</button>
<button type="submit" name="decision" value="decline">Decline</button>
<button type="submit" name="decision" value="cancel">Cancel</button>
</form>
${session.communicatorUrl ? resizeButton(session.communicatorUrl) : ""}
<script>if (window.self !== window.top) document.querySelector('[name=framed]').value = '1';</script>`,
    );
  }

  function decide(form: URLSearchParams): FakeResponse {
    const token = form.get("token") ?? "";
    const session = sessions.get(token);
    const decision = form.get("decision");
    if (!session || (decision !== "pay" && decision !== "decline" && decision !== "cancel")) {
      return html(400, "<h1>Error</h1><p>Missing or invalid token.</p>");
    }
    const framed = form.get("framed") === "1" && session.communicatorUrl;
    if (decision === "cancel") {
      return framed ? communicate(session.communicatorUrl!, "action=cancel") : redirect(session.cancelUrl);
    }
    const transaction = submitHostedForm(token, decision);
    if (!framed) return redirect(session.returnUrl);
    const response = {
      accountType: "Visa",
      accountNumber: "XXXX1111",
      transId: transaction.transId,
      responseCode: String(transaction.responseCode),
      authorization: transaction.responseCode === 1 ? "ABC123" : "",
      merchantName: "Fake merchant",
      totalAmount: session.amount,
      dateTime: transaction.submitTimeUTC,
      orderInvoiceNumber: session.invoiceNumber,
    };
    return communicate(session.communicatorUrl!, `action=transactResponse&response=${encodeURIComponent(JSON.stringify(response))}`);
  }

  const server = await startFakeHttpServer(answer);
  return {
    get url() {
      return server.url;
    },
    get host() {
      return server.host;
    },
    requests: server.requests,
    respondWith: server.respondWith.bind(server) as FakeServer["respondWith"],
    reset() {
      server.reset();
      sessions.clear();
      transactions.clear();
      batches.clear();
    },
    close: () => server.close(),
    answerNormally: () => server.respondWith(answer),
    hostedUrl: `${server.url}${HOSTED_PATH}`,
    sessions,
    transactions,
    submitHostedForm,
    settle,
    sendWebhook,
    apiCalls() {
      return server.requests
        .filter((request) => request.path === API_PATH && isRecord(request.body))
        .map((request) => {
          const body = request.body as Record<string, unknown>;
          const name = Object.keys(body)[0] ?? "";
          return { name, body: (body[name] ?? {}) as Record<string, unknown> };
        });
    },
  };
}

function transactionDetails(transaction: FakeTransaction) {
  return {
    transId: transaction.transId,
    submitTimeUTC: transaction.submitTimeUTC,
    transactionType: "authCaptureTransaction",
    transactionStatus: transaction.transactionStatus,
    responseCode: transaction.responseCode,
    responseReasonCode: transaction.responseCode === 1 ? 1 : 2,
    responseReasonDescription: transaction.responseReasonDescription,
    authCode: transaction.responseCode === 1 ? "ABC123" : "000000",
    order: { invoiceNumber: transaction.invoiceNumber, discountAmount: 0.0, taxIsAfterDiscount: false },
    authAmount: transaction.authAmount,
    settleAmount: transaction.settleAmount,
    taxExempt: false,
    payment: { creditCard: { cardNumber: "XXXX1111", expirationDate: "XXXX", cardType: "Visa" } },
    recurringBilling: false,
    product: "Card Not Present",
    marketType: "eCommerce",
  };
}

function transactionSummary(transaction: FakeTransaction) {
  return {
    transId: transaction.transId,
    submitTimeUTC: transaction.submitTimeUTC,
    submitTimeLocal: transaction.submitTimeUTC.replace("Z", ""),
    transactionStatus: transaction.transactionStatus,
    invoiceNumber: transaction.invoiceNumber,
    accountType: "Visa",
    accountNumber: "XXXX1111",
    settleAmount: transaction.settleAmount,
    marketType: "eCommerce",
    product: "Card Not Present",
  };
}

const SCHEMA = "AnetApi/xml/v1/schema/AnetApiSchema.xsd";
/** transactionRequestType's elements in the order AnetApiSchema.xsd declares them. */
const TRANSACTION_REQUEST_ELEMENTS = [
  "transactionType",
  "amount",
  "currencyCode",
  "payment",
  "profile",
  "solution",
  "callId",
  "terminalNumber",
  "authCode",
  "refTransId",
  "splitTenderId",
  "order",
  "lineItems",
  "tax",
  "duty",
  "shipping",
  "taxExempt",
  "poNumber",
  "customer",
  "billTo",
  "shipTo",
  "customerIP",
  "cardholderAuthentication",
  "retail",
  "employeeId",
  "transactionSettings",
  "userFields",
  "surcharge",
  "merchantDescriptor",
  "subMerchant",
  "tip",
  "processingOptions",
  "subsequentAuthInformation",
  "otherTax",
  "shipFrom",
  "authorizationIndicatorType",
];
/** extendedAmountType (tax, duty, shipping): its elements in order, and each one's maximum length. */
const EXTENDED_AMOUNT_ELEMENTS = ["amount", "name", "description"];
const EXTENDED_AMOUNT_LENGTHS: Record<string, number> = { name: 31, description: 255 };

/**
 * The JSON API validates a request against the schema as XML, element order included: the first child that is
 * unknown or comes after one it must precede is refused with E00003, worded as the API words it.
 */
function elementOrderError(parent: string, element: Record<string, unknown>, order: readonly string[]): FakeResponse | null {
  let previous = -1;
  for (const child of Object.keys(element)) {
    const position = order.indexOf(child);
    if (position <= previous) {
      const expected = order.slice(previous + 1).join(", ");
      return apiError(
        "E00003",
        `The element '${parent}' in namespace '${SCHEMA}' has invalid child element '${child}' in namespace '${SCHEMA}'. List of possible elements expected: '${expected}' in namespace '${SCHEMA}'.`,
      );
    }
    previous = position;
  }
  return null;
}

/** A tax or shipping element that breaks extendedAmountType: its order, a decimal amount, the lengths of name and description. */
function extendedAmountError(name: string, element: unknown): FakeResponse | null {
  if (element === undefined) return null;
  if (!isRecord(element)) return apiError("E00003", `The '${SCHEMA}:${name}' element is invalid.`);
  const orderError = elementOrderError(name, element, EXTENDED_AMOUNT_ELEMENTS);
  if (orderError) return orderError;
  if (typeof element.amount !== "string" || !/^\d+(\.\d{1,4})?$/.test(element.amount)) {
    return apiError(
      "E00003",
      `The '${SCHEMA}:amount' element is invalid - The value '${String(element.amount)}' is invalid according to its datatype '${SCHEMA}:decimal'.`,
    );
  }
  for (const [child, maxLength] of Object.entries(EXTENDED_AMOUNT_LENGTHS)) {
    const value = element[child];
    if (value !== undefined && (typeof value !== "string" || value.length > maxLength)) {
      return apiError("E00003", `The '${SCHEMA}:${child}' element is invalid - The actual length is greater than the MaxLength value.`);
    }
  }
  return null;
}

/** hostedPaymentSettings.setting[] with each settingValue's JSON parsed. */
function readSettings(value: unknown): Map<string, Record<string, unknown>> {
  const settings = new Map<string, Record<string, unknown>>();
  const list = isRecord(value) && Array.isArray(value.setting) ? value.setting : [];
  for (const item of list) {
    if (!isRecord(item) || typeof item.settingName !== "string") continue;
    try {
      const parsed: unknown = JSON.parse(String(item.settingValue));
      if (isRecord(parsed)) settings.set(item.settingName, parsed);
    } catch {
      // the real API ignores a setting it cannot read
    }
  }
  return settings;
}

/** The real API's JSON starts with a UTF-8 byte order mark. */
function withBom(body: unknown, status = 200): FakeResponse {
  return { status, body: `\uFEFF${JSON.stringify(body)}`, headers: { "content-type": "application/json; charset=utf-8" } };
}

function apiOk(fields: Record<string, unknown>, message = { code: "I00001", text: "Successful." }, refId?: string): FakeResponse {
  return withBom({ ...(refId ? { refId } : {}), ...fields, messages: { resultCode: "Ok", message: [message] } });
}

export function apiError(code: string, text: string): FakeResponse {
  return withBom({ messages: { resultCode: "Error", message: [{ code, text }] } });
}

function html(status: number, body: string): FakeResponse {
  return {
    status,
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Authorize.Net</title></head><body>${body}</body></html>`,
    headers: { "content-type": "text/html; charset=utf-8" },
  };
}

function redirect(location: string): FakeResponse {
  return { status: 303, body: "", headers: { location } };
}

/** Accept Hosted talks to the merchant's page by loading the iframe communicator inside its own frame. */
function communicate(communicatorUrl: string, message: string): FakeResponse {
  return html(
    200,
    `<p>Processing...</p><iframe title="communicator" src="${escapeHtml(`${communicatorUrl}#${message}`)}" hidden></iframe>`,
  );
}

/** Inside a frame, "Resize" makes the form report a new size (resizeWindow), as the real form does when its content grows. */
function resizeButton(communicatorUrl: string): string {
  const target = JSON.stringify(`${communicatorUrl}#action=resizeWindow&width=480&height=600`).replace(/</g, "\\u003c");
  return `<button type="button" id="resize" hidden>Resize</button>
<script>
  var resize = document.getElementById('resize');
  if (window.self !== window.top) resize.hidden = false;
  resize.addEventListener('click', function () {
    var frame = document.createElement('iframe');
    frame.hidden = true;
    frame.src = ${target};
    document.body.appendChild(frame);
  });
</script>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
