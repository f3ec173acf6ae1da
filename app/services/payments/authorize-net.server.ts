import { publicBaseUrl, type Config } from "~/config.server";
import { centsOfDecimal, decimalOfCents } from "~/utils/money";
import {
  PAYMENT_CURRENCY,
  PaymentError,
  type PaymentProvider,
  type PaymentVerification,
  type StartPaymentInput,
  type VerifyPaymentInput,
} from "./types";
import { logError } from "~/observability/logger.server";
import {
  batchListAnswer,
  detailsAnswer,
  listAnswer,
  messagesSchema,
  transactionAnswer,
  type TransactionDetails,
} from "./authorize-net-answers";

const PROVIDER = "authorizenet";
const DEFAULT_TIMEOUT_MS = 10_000;
/** How far back the redirect return looks in settled batches (settlement runs daily; the shopper usually returns at once). */
const SETTLED_SEARCH_DAYS = 3;

const HOSTS = {
  sandbox: { api: "https://apitest.authorize.net", hosted: "https://test.authorize.net/payment/payment" },
  production: { api: "https://api.authorize.net", hosted: "https://accept.authorize.net/payment/payment" },
} as const;

/** The page of ours Authorize.Net loads inside its form (in the popup) to pass messages to our page. */
export const AUTHORIZE_NET_COMMUNICATOR_PATH = "/payments/authorizenet/communicator";

/** Our page that posts the form token to the hosted payment form (by redirect, or in the popup with script). */
export function authorizeNetFormPath(attemptId: string, token: string): string {
  return `/payments/authorizenet/${encodeURIComponent(attemptId)}?${new URLSearchParams({ token })}`;
}

/** Statuses (getTransactionDetails `transactionStatus`) of a transaction that holds the money: authorized, captured or settled. */
const PAID_STATUSES = new Set(["authorizedPendingCapture", "capturedPendingSettlement", "settledSuccessfully"]);
const CAPTURED_STATUSES = new Set(["capturedPendingSettlement", "settledSuccessfully"]);
/** Statuses of a transaction that will never hold the money for this order. */
const DECLINED_STATUSES = new Set([
  "declined",
  "voided",
  "expired",
  "generalError",
  "failedReview",
  "communicationError",
  "settlementError",
  "couldNotVoid",
  "returnedItem",
  "chargeback",
  "refundSettledSuccessfully",
  "refundPendingSettlement",
]);

export const AUTHORIZE_NET_DECLINE_MESSAGE = "Your card was declined.";

export interface AuthorizeNetOptions {
  apiLoginId: string;
  transactionKey: string;
  environment?: "sandbox" | "production";
  apiBase?: string;
  hostedUrl?: string;
  /** The store's public address (return, cancel and communicator pages). */
  baseUrl: string;
  merchantName?: string;
  timeoutMs?: number;
}

export function authorizeNetHostedUrl(config: Pick<Config, "AUTHORIZE_NET_ENVIRONMENT" | "AUTHORIZE_NET_HOSTED_URL">): string {
  return config.AUTHORIZE_NET_HOSTED_URL ?? HOSTS[config.AUTHORIZE_NET_ENVIRONMENT].hosted;
}

export function isAuthorizeNetConfigured(config: Config): boolean {
  return Boolean(config.AUTHORIZE_NET_API_LOGIN_ID && config.AUTHORIZE_NET_TRANSACTION_KEY);
}

export function createAuthorizeNetFromConfig(config: Config): AuthorizeNetProvider {
  return createAuthorizeNet({
    apiLoginId: config.AUTHORIZE_NET_API_LOGIN_ID ?? "",
    transactionKey: config.AUTHORIZE_NET_TRANSACTION_KEY ?? "",
    environment: config.AUTHORIZE_NET_ENVIRONMENT,
    apiBase: config.AUTHORIZE_NET_API_BASE,
    hostedUrl: config.AUTHORIZE_NET_HOSTED_URL,
    baseUrl: publicBaseUrl(config),
    merchantName: config.STORE_NAME,
  });
}

/**
 * Invoice numbers and refIds hold at most 20 characters: the attempt id
 * without its prefix, cut to 20 (random letters and digits, so still unique).
 */
export function authorizeNetInvoiceNumber(attemptId: string): string {
  return attemptId.replace(/^pa_/, "").slice(0, 20);
}

/** "123.45" from 12345 cents, exactly. */
export function centsToDollars(cents: number): string {
  return decimalOfCents(cents);
}

/**
 * Authorize.Net Accept Hosted through the JSON API: the server asks for a
 * form token for the server total (getHostedPaymentPageRequest), the shopper
 * pays on Authorize.Net's form, and the server finds the transaction by our
 * invoice number (or the transId the popup reported) and reads its status
 * and amount with getTransactionDetailsRequest.
 */
export interface AuthorizeNetProvider extends PaymentProvider {
  /** Our invoice number (the attempt's reference) of a transaction, asked of the API; null for a transaction it does not know. */
  invoiceNumberOf(transId: string): Promise<string | null>;
}

export function createAuthorizeNet(options: AuthorizeNetOptions): AuthorizeNetProvider {
  const environment = options.environment ?? "sandbox";
  const endpoint = `${(options.apiBase ?? HOSTS[environment].api).replace(/\/+$/, "")}/xml/v1/request.api`;
  const hostedUrl = options.hostedUrl ?? HOSTS[environment].hosted;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const merchantAuthentication = { name: options.apiLoginId, transactionKey: options.transactionKey };
  const call = (body: unknown) => callApi(endpoint, body, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  async function transactionDetails(transId: string): Promise<TransactionDetails | null> {
    const answer = await call({ getTransactionDetailsRequest: { merchantAuthentication, transId } });
    if (isNotFound(answer)) return null;
    assertOk(answer, "getTransactionDetails");
    const parsed = detailsAnswer.safeParse(answer);
    if (!parsed.success) throw new PaymentError("Authorize.Net sent transaction details we cannot read.", PROVIDER);
    return parsed.data.transaction;
  }

  const listIds = (answer: unknown, callName: string, invoiceNumber: string) => {
    assertOk(answer, callName);
    const parsed = listAnswer.safeParse(answer);
    if (!parsed.success) throw new PaymentError(`Authorize.Net sent a ${callName} answer we cannot read.`, PROVIDER);
    return (parsed.data.transactions ?? []).filter((item) => item.invoiceNumber === invoiceNumber).map((item) => item.transId);
  };
  const sorting = { orderBy: "submitTimeUTC", orderDescending: true };
  const paging = { limit: 1000, offset: 1 };

  /** Transactions not yet settled for our invoice number, newest first (the redirect return carries no transaction id). */
  async function unsettledTransactionIds(invoiceNumber: string): Promise<string[]> {
    const answer = await call({ getUnsettledTransactionListRequest: { merchantAuthentication, sorting, paging } });
    return listIds(answer, "getUnsettledTransactionList", invoiceNumber);
  }

  /** The same in the batches settled in the last few days, for a shopper who returns after the nightly settlement. */
  async function settledTransactionIds(invoiceNumber: string): Promise<string[]> {
    const now = Date.now();
    const answer = await call({
      getSettledBatchListRequest: {
        merchantAuthentication,
        includeStatistics: false,
        firstSettlementDate: apiDateTime(now - SETTLED_SEARCH_DAYS * 86_400_000),
        lastSettlementDate: apiDateTime(now),
      },
    });
    assertOk(answer, "getSettledBatchList");
    const parsed = batchListAnswer.safeParse(answer);
    if (!parsed.success) throw new PaymentError("Authorize.Net sent a getSettledBatchList answer we cannot read.", PROVIDER);
    const batches = [...(parsed.data.batchList ?? [])].reverse();
    for (const { batchId } of batches) {
      const list = await call({ getTransactionListRequest: { merchantAuthentication, batchId, sorting, paging } });
      const ids = listIds(list, "getTransactionList", invoiceNumber);
      if (ids.length > 0) return ids;
    }
    return [];
  }

  /** The paid transaction of an invoice, searched like the return page does. */
  async function paidTransaction(invoiceNumber: string): Promise<TransactionDetails | null> {
    let ids = await unsettledTransactionIds(invoiceNumber);
    if (ids.length === 0) ids = await settledTransactionIds(invoiceNumber);
    const candidates = await Promise.all(ids.map(transactionDetails));
    return candidates.find((item) => item?.order?.invoiceNumber === invoiceNumber && PAID_STATUSES.has(item.transactionStatus)) ?? null;
  }

  return {
    id: PROVIDER,
    method: "authorizenet",
    name: "Authorize.Net Accept Hosted",
    async invoiceNumberOf(transId) {
      if (!/^\d{1,20}$/.test(transId)) return null;
      return (await transactionDetails(transId))?.order?.invoiceNumber ?? null;
    },
    /** Before settlement the transaction is voided (nothing moves); after, refunded in full to the same card. */
    async refundPayment({ reference, amountCents, part }) {
      const paid = await paidTransaction(reference);
      if (!paid) return { status: "refused", message: "Authorize.Net holds no paid transaction for this payment." };
      const unsettled = paid.transactionStatus !== "settledSuccessfully";
      // A void gives back the whole transaction: part of one can be refunded only once it has settled.
      if (part && unsettled) {
        return {
          status: "refused",
          message: "Authorize.Net can refund part of a payment only once it has settled (usually by the next day). Please try again then",
        };
      }
      const transactionRequest = unsettled
        ? { transactionType: "voidTransaction", refTransId: paid.transId }
        : {
            transactionType: "refundTransaction",
            amount: centsToDollars(amountCents),
            payment: { creditCard: { cardNumber: (paid.payment?.creditCard?.cardNumber ?? "").slice(-4), expirationDate: "XXXX" } },
            refTransId: paid.transId,
          };
      const answer = await call({ createTransactionRequest: { merchantAuthentication, transactionRequest } });
      const parsed = transactionAnswer.safeParse(answer);
      const result = parsed.success ? parsed.data.transactionResponse : undefined;
      if (messagesOf(answer)?.resultCode === "Ok" && result?.responseCode === "1") {
        return { status: "refunded", refundReference: result.transId && result.transId !== "0" ? result.transId : paid.transId };
      }
      const reason = result?.errors?.[0]?.errorText ?? messagesOf(answer)?.message?.[0]?.text ?? "no reason given";
      return { status: "refused", message: `Authorize.Net refused the ${unsettled ? "void" : "refund"}: ${reason}` };
    },
    isStandIn: false,
    async startPayment(input) {
      const invoiceNumber = authorizeNetInvoiceNumber(input.attemptId);
      const answer = await call(hostedPaymentPageRequest(input, { merchantAuthentication, invoiceNumber, baseUrl, options }));
      assertOk(answer, "getHostedPaymentPage");
      const token = isRecord(answer) && typeof answer.token === "string" ? answer.token : "";
      if (!token) throw new PaymentError("Authorize.Net answered without a form token.", PROVIDER);
      return {
        reference: invoiceNumber,
        redirectUrl: authorizeNetFormPath(input.attemptId, token),
        clientData: { token, hostedUrl },
      };
    },
    async verifyPayment(input) {
      const reported = reportedTransactionId(input.returnParams);
      const fromPopup = reported ? await transactionDetails(reported) : null;
      if (fromPopup && fromPopup.order?.invoiceNumber === input.reference) return verdict(fromPopup, input);

      let ids = await unsettledTransactionIds(input.reference);
      if (ids.length === 0) ids = await settledTransactionIds(input.reference);
      const candidates = await Promise.all(ids.map(transactionDetails));
      const found = candidates.filter((item): item is TransactionDetails => item?.order?.invoiceNumber === input.reference);
      const chosen = found.find((item) => PAID_STATUSES.has(item.transactionStatus)) ?? found[0];
      if (!chosen) {
        logError(`Authorize.Net: no transaction response for invoice ${input.reference} (attempt ${input.attemptId})`);
        return { status: "pending", reference: input.reference, message: "No transaction found yet." };
      }
      return verdict(chosen, input);
    },
  };
}

function hostedPaymentPageRequest(
  input: StartPaymentInput,
  context: {
    merchantAuthentication: { name: string; transactionKey: string };
    invoiceNumber: string;
    baseUrl: string;
    options: AuthorizeNetOptions;
  },
) {
  const { customer } = input;
  const setting = (settingName: string, value: unknown) => ({ settingName, settingValue: JSON.stringify(value) });
  // Element order follows Authorize.Net's schema: the JSON API validates it like XML.
  return {
    getHostedPaymentPageRequest: {
      merchantAuthentication: context.merchantAuthentication,
      refId: context.invoiceNumber,
      transactionRequest: {
        transactionType: "authCaptureTransaction",
        amount: centsToDollars(input.amountCents),
        order: { invoiceNumber: context.invoiceNumber, description: input.description.slice(0, 255) },
        tax: { amount: centsToDollars(input.taxCents), name: "Sales tax", description: "State and local sales tax" },
        shipping: { amount: centsToDollars(input.shippingCents), name: "Shipping" },
        customer: { email: customer.email.slice(0, 255) },
        billTo: {
          firstName: customer.firstName.slice(0, 50),
          lastName: customer.lastName.slice(0, 50),
          address: customer.address.slice(0, 60),
          city: customer.city.slice(0, 40),
          state: customer.state.slice(0, 40),
          zip: customer.postalCode.slice(0, 20),
          country: customer.countryCode,
          phoneNumber: customer.phone.slice(0, 25),
        },
      },
      hostedPaymentSettings: {
        setting: [
          setting("hostedPaymentReturnOptions", {
            showReceipt: false,
            url: input.returnUrl,
            urlText: "Continue",
            cancelUrl: input.cancelUrl,
            cancelUrlText: "Cancel",
          }),
          setting("hostedPaymentButtonOptions", { text: "Pay" }),
          setting("hostedPaymentOrderOptions", { show: true, merchantName: context.options.merchantName ?? "" }),
          setting("hostedPaymentPaymentOptions", { cardCodeRequired: true, showCreditCard: true, showBankAccount: false }),
          setting("hostedPaymentIFrameCommunicatorUrl", { url: `${context.baseUrl}${AUTHORIZE_NET_COMMUNICATOR_PATH}` }),
        ],
      },
    },
  };
}

function verdict(transaction: TransactionDetails, input: VerifyPaymentInput): PaymentVerification {
  const reference = input.reference;
  const status = transaction.transactionStatus;
  if (PAID_STATUSES.has(status)) {
    const amount = CAPTURED_STATUSES.has(status) ? transaction.settleAmount : transaction.authAmount;
    const amountCents = centsOfDecimal(amount);
    if (amountCents === null) throw new PaymentError(`Authorize.Net transaction ${transaction.transId} has no usable amount.`, PROVIDER);
    return { status: "approved", reference, amountCents, currency: PAYMENT_CURRENCY };
  }
  if (DECLINED_STATUSES.has(status)) {
    const reason = transaction.responseReasonDescription;
    return {
      status: "declined",
      reference,
      message: reason ? `${AUTHORIZE_NET_DECLINE_MESSAGE} ${reason}` : AUTHORIZE_NET_DECLINE_MESSAGE,
    };
  }
  return { status: "pending", reference, message: `Transaction ${transaction.transId} is ${status}.` };
}

/** The transId our popup appended to the return URL (from the transactResponse callback); only a hint, checked with the API. */
function reportedTransactionId(params: URLSearchParams): string | null {
  const value = params.get("trans_id") ?? "";
  return /^\d{1,20}$/.test(value) && value !== "0" ? value : null;
}

/** xs:dateTime in UTC without milliseconds, as the API's examples write it. */
function apiDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messagesOf(answer: unknown) {
  const parsed = messagesSchema.safeParse(isRecord(answer) ? answer.messages : undefined);
  return parsed.success ? parsed.data : null;
}

/** E00040 "The record cannot be found." (an unknown transId). */
function isNotFound(answer: unknown): boolean {
  const messages = messagesOf(answer);
  return messages?.resultCode === "Error" && (messages.message ?? []).some((message) => message.code === "E00040");
}

function assertOk(answer: unknown, call: string) {
  const messages = messagesOf(answer);
  if (!messages) throw new PaymentError(`Authorize.Net ${call} answered without a result code.`, PROVIDER);
  if (messages.resultCode !== "Ok") {
    const detail = (messages.message ?? []).map((message) => `${message.code} ${message.text}`).join("; ");
    throw new PaymentError(`Authorize.Net ${call} failed: ${detail || "no message"}`, PROVIDER);
  }
}

/** One JSON API call. Authorize.Net prefixes its JSON with a byte order mark, which JSON.parse refuses. */
async function callApi(endpoint: string, body: unknown, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new PaymentError(`Authorize.Net could not be reached: ${String(error)}`, PROVIDER);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new PaymentError(`Authorize.Net's answer could not be read: ${String(error)}`, PROVIDER, response.status);
  }
  if (!response.ok) throw new PaymentError(`Authorize.Net answered HTTP ${response.status}.`, PROVIDER, response.status);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw new PaymentError("Authorize.Net answered with malformed JSON.", PROVIDER, response.status);
  }
}
