import { publicBaseUrl, type Config } from "~/config.server";
import {
  PaymentError,
  type PaymentProvider,
  type CaptureResult,
  type PaymentVerification,
  type RefundResult,
  type StartPaymentInput,
  type StartedPayment,
} from "./types";
import { logError } from "~/observability/logger.server";

/**
 * Affirm financing through its documented REST API (docs.affirm.com), with
 * Basic auth (public key : private key):
 * - Direct Checkout (`POST /api/v2/checkout/direct`) stores the checkout object
 *   and answers `{ checkout_id, redirect_url }`; the shopper applies on Affirm's
 *   page, which then POSTs `checkout_token` (the same value as checkout_id) to
 *   our user_confirmation_url, `POST /api/confirm-order`.
 * - Transactions API: `POST /api/v1/transactions` authorizes that checkout
 *   (`transaction_id` = the checkout token) and answers a transaction with
 *   Affirm's own id, which every later call takes (`GET`, `/capture`, `/void`,
 *   `/refund` under `/api/v1/transactions/{id}`).
 * We authorize when the shopper confirms; the loan is captured when staff ship the order.
 */
export const AFFIRM_API_HOSTS = { sandbox: "https://sandbox.affirm.com", production: "https://api.affirm.com" } as const;

/** The spec's financing authorization failure, shown as it is. */
export const AFFIRM_AUTHORIZATION_FAILED = "Failed to authorize payment. Please contact support.";

/** The query parameter of /checkout-authorized/affirm carrying the checkout token Affirm posted to us. */
export const AFFIRM_TOKEN_PARAM = "affirm_token";

/** How long Affirm honours an authorization's capture when the transaction does not say. */
const AUTHORIZATION_LIFETIME_MS = 30 * 86_400_000;

/** Transaction statuses in which Affirm holds the loan for the merchant. */
const HELD_STATUSES = new Set(["authorized", "captured", "confirmed"]);

export interface AffirmOptions {
  publicApiKey: string;
  privateApiKey: string;
  /** Host root, e.g. https://sandbox.affirm.com (paths start with /api/...). */
  apiBase: string;
  merchantName: string;
  /** Absolute URL of our `POST /api/confirm-order`. */
  confirmationUrl: string;
  timeoutMs?: number;
}

export function isAffirmConfigured(config: Config): boolean {
  return Boolean(config.AFFIRM_PUBLIC_API_KEY && config.AFFIRM_PRIVATE_API_KEY);
}

export function affirmApiBase(config: Config): string {
  return (config.AFFIRM_API_BASE ?? AFFIRM_API_HOSTS[config.AFFIRM_ENVIRONMENT]).replace(/\/+$/, "");
}

/** The driver as the store configures it: Affirm posts the shopper back to our /api/confirm-order. */
export function affirmProviderFromConfig(config: Config): PaymentProvider {
  return createAffirmProvider({
    publicApiKey: config.AFFIRM_PUBLIC_API_KEY ?? "",
    privateApiKey: config.AFFIRM_PRIVATE_API_KEY ?? "",
    apiBase: affirmApiBase(config),
    merchantName: config.STORE_NAME,
    confirmationUrl: `${publicBaseUrl(config)}/api/confirm-order`,
  });
}

interface AffirmTransaction {
  /** Affirm's transaction id (not the checkout token): what capture, void, refund and read take. */
  id: string;
  checkoutId: string | null;
  status: string;
  amountCents: number;
  currency: string;
  authorizationExpiresAt: Date | null;
}

export function createAffirmProvider(options: AffirmOptions): PaymentProvider {
  const api = affirmClient(options);
  return {
    id: "affirm",
    method: "affirm",
    name: "Affirm",
    isStandIn: false,
    async startPayment(input: StartPaymentInput): Promise<StartedPayment> {
      const body = await api.request("POST", "/api/v2/checkout/direct", checkoutObject(input, options));
      const checkoutId = stringField(body, "checkout_id");
      const redirectUrl = stringField(body, "redirect_url");
      if (!checkoutId || !redirectUrl || !/^https?:\/\//.test(redirectUrl)) {
        throw new PaymentError("Affirm's direct checkout answer has no checkout_id or redirect_url", "affirm");
      }
      return { reference: checkoutId, redirectUrl };
    },
    async verifyPayment({ attemptId, reference, returnParams, collect = true }): Promise<PaymentVerification> {
      const token = returnParams.get(AFFIRM_TOKEN_PARAM);
      if (token !== null && token !== reference) return declined(reference);
      // No loan exists until we authorize the confirmed checkout: once the checkout is paid, we never do.
      if (!collect) return { status: "uncollected", reference };
      // After Affirm's post-back, the Idempotency-Key makes a repeated authorization (a second return) answer the same
      // transaction. Without it the shopper may not have confirmed yet: a refusal must not be remembered, and Affirm
      // itself refuses a token authorized twice. The reconciler asks again later.
      const authorized = await api.authorize(reference, attemptId, token !== null);
      if (authorized.ok) return verdict(reference, authorized.transaction);
      if (token === null) return { status: "pending", reference, message: authorized.message };
      logError(`Affirm refused to authorize checkout ${reference}: ${authorized.message}`);
      return declined(reference);
    },
    /** An authorized loan is voided (nothing was captured); a captured one is refunded in full. By Affirm's transaction id. */
    async refundPayment({ attemptId, paymentId, amountCents, part }): Promise<RefundResult> {
      const transaction = await api.readTransaction(paymentId);
      // A loan partly refunded already (a returned item) still holds the rest.
      const partlyRefunded = transaction?.status === "partially_refunded";
      if (!transaction || !(HELD_STATUSES.has(transaction.status) || partlyRefunded))
        return { status: "refused", message: "Affirm holds no loan for this payment." };
      const captured = transaction.status === "captured" || partlyRefunded;
      if (part && !captured) {
        return {
          status: "refused",
          message: "Affirm's loan is not captured yet (its order has not shipped), so part of it cannot be refunded",
        };
      }
      const action = captured ? "refund" : "void";
      const path = `/api/v1/transactions/${encodeURIComponent(transaction.id)}/${action}`;
      const key = part ? part.idempotencyKey : `${action}-${attemptId}`;
      const answer = await api.send("POST", path, captured ? { amount: amountCents } : {}, { "Idempotency-Key": key });
      if (!answer.ok) return { status: "refused", message: `Affirm refused the ${action}: ${api.errorText(answer.status, answer.json)}` };
      const id = isRecord(answer.json) ? stringField(answer.json, "id") : null;
      return { status: "refunded", refundReference: id ?? transaction.id };
    },
    /** Captures the loan when its order ships, as Affirm's terms ask; a loan already captured counts as captured. */
    async capturePayment({ attemptId, paymentId, orderId }): Promise<CaptureResult> {
      const path = `/api/v1/transactions/${encodeURIComponent(paymentId)}/capture`;
      const answer = await api.send("POST", path, { order_id: orderId }, { "Idempotency-Key": `capture-${attemptId}` });
      if (answer.ok) return { status: "captured" };
      const transaction = await api.readTransaction(paymentId);
      if (transaction?.status === "captured") return { status: "captured" };
      return { status: "refused", message: `Affirm refused the capture: ${api.errorText(answer.status, answer.json)}` };
    },
  };
}

function verdict(checkoutId: string, transaction: AffirmTransaction): PaymentVerification {
  if (transaction.checkoutId !== null && transaction.checkoutId !== checkoutId) return declined(checkoutId);
  if (!HELD_STATUSES.has(transaction.status)) return declined(checkoutId);
  return {
    status: "approved",
    reference: transaction.id,
    amountCents: transaction.amountCents,
    currency: transaction.currency,
    authorizationExpiresAt: transaction.authorizationExpiresAt ?? new Date(Date.now() + AUTHORIZATION_LIFETIME_MS),
  };
}

function declined(reference: string): PaymentVerification {
  return { status: "declined", reference, message: AFFIRM_AUTHORIZATION_FAILED };
}

/**
 * The checkout object of Affirm's docs: items, shipping and billing from the form, every amount in cents; Affirm
 * refuses a total other than the items plus shipping_amount and tax_amount, less the discounts.
 */
export function checkoutObject(
  input: StartPaymentInput,
  options: Pick<AffirmOptions, "publicApiKey" | "merchantName" | "confirmationUrl">,
) {
  const contact = {
    name: { first: input.customer.firstName, last: input.customer.lastName },
    address: {
      line1: input.customer.address,
      city: input.customer.city,
      state: input.customer.state,
      zipcode: input.customer.postalCode,
      country: "USA",
    },
    phone_number: input.customer.phone,
    email: input.customer.email,
  };
  return {
    merchant: {
      public_api_key: options.publicApiKey,
      user_confirmation_url: options.confirmationUrl,
      user_confirmation_url_action: "POST",
      user_cancel_url: input.cancelUrl,
      name: options.merchantName,
    },
    shipping: contact,
    billing: contact,
    items: input.items.map((item) => ({
      display_name: item.title,
      sku: item.productKey,
      unit_price: item.unitPriceCents,
      qty: item.quantity,
      item_image_url: item.imageUrl,
      item_url: item.productUrl,
      categories: item.categories.map((category) => [category]),
    })),
    ...(input.discountCents > 0
      ? { discounts: { PROMO: { discount_amount: input.discountCents, discount_display_name: "Promo code" } } }
      : {}),
    metadata: { checkout_token: input.checkoutToken, attempt_id: input.attemptId },
    order_id: input.attemptId,
    currency: input.currency,
    shipping_amount: input.shippingCents,
    tax_amount: input.taxCents,
    total: input.amountCents,
  };
}

type AuthorizeResult = { ok: true; transaction: AffirmTransaction } | { ok: false; message: string };

function affirmClient(options: AffirmOptions) {
  const base = options.apiBase.replace(/\/+$/, "");
  const authorization = `Basic ${Buffer.from(`${options.publicApiKey}:${options.privateApiKey}`).toString("base64")}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function send(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: authorization,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new PaymentError(`Affirm could not be reached: ${(error as Error).name}`, "affirm");
    }
    const text = await response.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.status >= 500) throw new PaymentError(`Affirm answered ${response.status}`, "affirm", response.status);
    if (response.ok && !isRecord(json)) throw new PaymentError(`Affirm answered ${response.status} without a JSON object`, "affirm");
    return { status: response.status, ok: response.ok, json };
  }

  /** A refusal's text from Affirm's error body `{ status_code, type, code, message, field }`. */
  function errorText(status: number, json: unknown): string {
    if (!isRecord(json)) return `HTTP ${status}`;
    return [json.code, json.type, json.message, json.field].filter((part) => typeof part === "string" && part !== "").join(" / ");
  }

  return {
    send,
    /** Any answer but 2xx is a failure here: a checkout that cannot be created cannot be paid. */
    async request(method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> {
      const answer = await send(method, path, body);
      if (!answer.ok) throw new PaymentError(`Affirm refused ${path}: ${errorText(answer.status, answer.json)}`, "affirm", answer.status);
      return answer.json as Record<string, unknown>;
    },
    /** `idempotent`: a repeated call answers the first one's transaction (and its refusal, so only once the shopper has confirmed). */
    async authorize(checkoutToken: string, attemptId: string, idempotent: boolean): Promise<AuthorizeResult> {
      const answer = await send(
        "POST",
        "/api/v1/transactions",
        { transaction_id: checkoutToken, order_id: attemptId },
        idempotent ? { "Idempotency-Key": attemptId } : {},
      );
      if (answer.status === 401 || answer.status === 403)
        throw new PaymentError(`Affirm rejected our keys (${answer.status})`, "affirm", answer.status);
      if (!answer.ok) return { ok: false, message: errorText(answer.status, answer.json) };
      return { ok: true, transaction: parseTransaction(answer.json) };
    },
    errorText,
    /** A transaction by Affirm's transaction id, or null when Affirm has none (404). */
    async readTransaction(transactionId: string): Promise<AffirmTransaction | null> {
      const answer = await send("GET", `/api/v1/transactions/${encodeURIComponent(transactionId)}`);
      if (answer.status === 404 || answer.status === 400) return null;
      if (!answer.ok)
        throw new PaymentError(`Affirm refused to read transaction: ${errorText(answer.status, answer.json)}`, "affirm", answer.status);
      return parseTransaction(answer.json);
    },
  };
}

function parseTransaction(json: unknown): AffirmTransaction {
  if (!isRecord(json)) throw new PaymentError("Affirm's transaction is not a JSON object", "affirm");
  const id = stringField(json, "id");
  const status = stringField(json, "status");
  const { amount, currency } = json;
  if (!id || !status || typeof amount !== "number" || !Number.isInteger(amount) || typeof currency !== "string") {
    throw new PaymentError("Affirm's transaction lacks id, status, amount or currency", "affirm");
  }
  const expiration = stringField(json, "authorization_expiration");
  const expiresAt = expiration ? new Date(expiration) : null;
  return {
    id,
    checkoutId: stringField(json, "checkout_id"),
    status,
    amountCents: amount,
    currency,
    authorizationExpiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : null,
  };
}

function stringField(json: Record<string, unknown>, key: string): string | null {
  const value = json[key];
  return typeof value === "string" && value !== "" ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
