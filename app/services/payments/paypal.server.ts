import { z } from "zod";
import type { Config } from "~/config.server";
import { centsOfDecimal } from "~/utils/money";
import { centsToValue, orderRequest } from "./paypal-order-body";
import type { PayPalWebhookSignature } from "./paypal-webhook.server";
import {
  PaymentError,
  type PaymentProvider,
  type PaymentVerification,
  type RefundResult,
  type StartPaymentInput,
  type StartedPayment,
} from "./types";

/**
 * The PayPal wallet through PayPal's REST API (Orders v2,
 * https://developer.paypal.com/docs/api/orders/v2/): the server creates an
 * order for the checkout's total, the shopper approves it (JS SDK buttons, or
 * PayPal's hosted page without script), and verifying captures it. Only a
 * COMPLETED capture counts as paid.
 */

const PROVIDER = "paypal";
const DEFAULT_TIMEOUT_MS = 10_000;
/** Renew a cached access token this long before PayPal says it expires. */
const TOKEN_RENEW_MARGIN_MS = 60_000;

export const PAYPAL_HOSTS = {
  sandbox: { api: "https://api-m.sandbox.paypal.com", web: "https://www.sandbox.paypal.com" },
  production: { api: "https://api-m.paypal.com", web: "https://www.paypal.com" },
} as const;

export const PAYPAL_DECLINED_MESSAGE = "PayPal declined the payment method. Please try another funding source or payment method.";
export const PAYPAL_CAPTURE_DECLINED_MESSAGE = "PayPal could not capture the payment.";
export const PAYPAL_VOIDED_MESSAGE = "The PayPal payment was canceled.";
export const PAYPAL_UNKNOWN_ORDER_MESSAGE = "PayPal has no record of this payment.";
export const PAYPAL_OTHER_CHECKOUT_MESSAGE = "This PayPal payment belongs to another checkout.";

export interface PayPalOptions {
  clientId: string;
  clientSecret: string;
  /** e.g. https://api-m.sandbox.paypal.com, or a local fake. */
  apiBase: string;
  /** The store's name on PayPal's pages. */
  brandName?: string;
  timeoutMs?: number;
}

export function isPayPalConfigured(config: Config): boolean {
  return Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET);
}

export function paypalApiBase(config: Config): string {
  return trimSlash(config.PAYPAL_API_BASE ?? PAYPAL_HOSTS[config.PAYPAL_ENVIRONMENT].api);
}

/** The JS SDK script address (PayPal's `sdkBaseUrl`): `{PAYPAL_SDK_BASE or PayPal's web host}/sdk/js`. */
export function paypalSdkUrl(config: Config): string {
  return `${trimSlash(config.PAYPAL_SDK_BASE ?? PAYPAL_HOSTS[config.PAYPAL_ENVIRONMENT].web)}/sdk/js`;
}

export function createPayPalProviderFromConfig(config: Config): PayPalProvider {
  return createPayPalProvider({
    clientId: config.PAYPAL_CLIENT_ID ?? "",
    clientSecret: config.PAYPAL_CLIENT_SECRET ?? "",
    apiBase: paypalApiBase(config),
    brandName: config.STORE_NAME,
  });
}

const money = z.object({ currency_code: z.string(), value: z.string() });
const capture = z.object({
  id: z.string(),
  status: z.string(),
  amount: money.optional(),
  status_details: z.object({ reason: z.string().optional() }).optional(),
});
const orderAnswer = z.object({
  id: z.string().min(1),
  status: z.string(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
  purchase_units: z
    .array(
      z.object({
        custom_id: z.string().optional(),
        payments: z.object({ captures: z.array(capture).optional() }).optional(),
      }),
    )
    .optional(),
});
const refundAnswer = z.object({ id: z.string().min(1), status: z.string() });
const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const errorAnswer = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  details: z.array(z.object({ issue: z.string().optional(), description: z.string().optional() })).optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

type PayPalOrder = z.infer<typeof orderAnswer>;
type PayPalError = z.infer<typeof errorAnswer>;
interface Answer {
  status: number;
  json: unknown;
}

export interface PayPalProvider extends PaymentProvider {
  /** Asks PayPal whether this event was signed by PayPal for our webhook (POST /v1/notifications/verify-webhook-signature). */
  verifyWebhookSignature(signature: PayPalWebhookSignature, webhookId: string, event: unknown): Promise<boolean>;
}

export function createPayPalProvider(options: PayPalOptions): PayPalProvider {
  const apiBase = trimSlash(options.apiBase);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  /** The access token, kept until shortly before it expires: the driver is built once per runtime, so one token serves every request. */
  let cachedToken: { token: string; renewAt: number } | null = null;

  async function send(method: string, path: string, init: { headers?: Record<string, string>; body?: string }): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(`${apiBase}${path}`, { method, ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PaymentError(`PayPal could not be reached (${method} ${path}): ${String(error)}`, PROVIDER);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new PaymentError(`PayPal's answer to ${method} ${path} could not be read: ${String(error)}`, PROVIDER, response.status);
    }
    return { status: response.status, json: parseJson(text) };
  }

  async function accessToken(): Promise<string> {
    if (cachedToken && cachedToken.renewAt > Date.now()) return cachedToken.token;
    const credentials = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64");
    const answer = await send("POST", "/v1/oauth2/token", {
      headers: {
        authorization: `Basic ${credentials}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
    });
    if (answer.status !== 200) throw statusError("POST /v1/oauth2/token", answer);
    const parsed = tokenAnswer.safeParse(answer.json);
    if (!parsed.success) throw new PaymentError("PayPal answered the token request with an unexpected body.", PROVIDER, answer.status);
    const lifetimeMs = parsed.data.expires_in * 1000;
    const renewAt = Date.now() + Math.max(lifetimeMs - TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2);
    cachedToken = { token: parsed.data.access_token, renewAt };
    return parsed.data.access_token;
  }

  /** A call with a bearer token; a token PayPal no longer accepts is renewed once. */
  async function api(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
    const call = async () =>
      send(method, path, {
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          "content-type": "application/json",
          accept: "application/json",
          prefer: "return=representation",
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const answer = await call();
    if (answer.status !== 401) return answer;
    cachedToken = null;
    return call();
  }

  function readOrder(what: string, answer: Answer): PayPalOrder {
    const parsed = orderAnswer.safeParse(answer.json);
    if (!parsed.success) throw new PaymentError(`PayPal answered ${what} with an unexpected body.`, PROVIDER, answer.status);
    return parsed.data;
  }

  async function getOrder(orderId: string): Promise<PayPalOrder | null> {
    const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}`;
    const answer = await api("GET", path);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw statusError(`GET ${path}`, answer);
    return readOrder(`GET ${path}`, answer);
  }

  /** Captures an approved order; the attempt's id keeps a retried capture from capturing twice. */
  async function captureOrder(orderId: string, attemptId: string): Promise<PayPalOrder | PaymentVerification> {
    const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`;
    const answer = await api("POST", path, { "paypal-request-id": `capture-${attemptId}` });
    if (answer.status === 200 || answer.status === 201) return readOrder(`POST ${path}`, answer);
    if (answer.status !== 422) throw statusError(`POST ${path}`, answer);
    const error = errorAnswer.safeParse(answer.json).data ?? {};
    const issue = error.details?.[0]?.issue;
    if (issue === "ORDER_ALREADY_CAPTURED") {
      const order = await getOrder(orderId);
      if (!order) return { status: "declined", reference: orderId, message: PAYPAL_UNKNOWN_ORDER_MESSAGE };
      return order;
    }
    if (issue === "INSTRUMENT_DECLINED") return { status: "declined", reference: orderId, message: PAYPAL_DECLINED_MESSAGE };
    if (issue === "ORDER_NOT_APPROVED" || issue === "PAYER_ACTION_REQUIRED") {
      return { status: "pending", reference: orderId, message: describeError(error) };
    }
    return { status: "declined", reference: orderId, message: readableIssue(error) };
  }

  return {
    id: PROVIDER,
    method: "paypal",
    name: "PayPal",
    isStandIn: false,

    async startPayment(input: StartPaymentInput): Promise<StartedPayment> {
      const answer = await api(
        "POST",
        "/v2/checkout/orders",
        { "paypal-request-id": input.attemptId },
        orderRequest(input, options.brandName),
      );
      if (answer.status !== 200 && answer.status !== 201) throw statusError("POST /v2/checkout/orders", answer);
      const order = readOrder("POST /v2/checkout/orders", answer);
      const approval = order.links?.find((link) => link.rel === "payer-action") ?? order.links?.find((link) => link.rel === "approve");
      if (!approval) throw new PaymentError(`PayPal order ${order.id} came without an approval link.`, PROVIDER, answer.status);
      return { reference: order.id, redirectUrl: approval.href, clientData: { orderId: order.id } };
    },

    async verifyPayment({ attemptId, reference, collect = true }): Promise<PaymentVerification> {
      const order = await getOrder(reference);
      if (!order) return { status: "declined", reference, message: PAYPAL_UNKNOWN_ORDER_MESSAGE };
      if (order.status !== "APPROVED") return judgeOrder(order, attemptId);
      // Approved by the buyer, but no money moves until we capture: once the checkout is paid, we never do.
      if (!collect) return { status: "uncollected", reference };
      const captured = await captureOrder(order.id, attemptId);
      return "id" in captured ? judgeOrder(captured, attemptId) : captured;
    },

    /** Refunds the order's completed capture in full (POST /v2/payments/captures/{id}/refund), once per attempt. */
    async refundPayment({ attemptId, reference, amountCents, part }): Promise<RefundResult> {
      const order = await getOrder(reference);
      // A capture partly refunded already (a returned item) still holds the rest.
      const completed = order?.purchase_units?.[0]?.payments?.captures?.find(
        (item) => item.status === "COMPLETED" || item.status === "PARTIALLY_REFUNDED",
      );
      if (!completed) return { status: "refused", message: "PayPal holds no completed capture for this payment." };
      const path = `/v2/payments/captures/${encodeURIComponent(completed.id)}/refund`;
      const answer = part
        ? await api(
            "POST",
            path,
            { "paypal-request-id": part.idempotencyKey },
            { amount: { currency_code: "USD", value: centsToValue(amountCents) } },
          )
        : await api("POST", path, { "paypal-request-id": `refund-${attemptId}` }, {});
      if (answer.status >= 500) throw statusError(`POST ${path}`, answer);
      const refund = refundAnswer.safeParse(answer.json);
      if (
        (answer.status === 200 || answer.status === 201) &&
        refund.success &&
        refund.data.status !== "FAILED" &&
        refund.data.status !== "CANCELLED"
      ) {
        return { status: "refunded", refundReference: refund.data.id };
      }
      const error = errorAnswer.safeParse(answer.json).data;
      return { status: "refused", message: error ? readableIssue(error) : `PayPal answered ${answer.status}.` };
    },

    async verifyWebhookSignature(signature, webhookId, event): Promise<boolean> {
      const answer = await api(
        "POST",
        "/v1/notifications/verify-webhook-signature",
        {},
        {
          transmission_id: signature.transmissionId,
          transmission_time: signature.transmissionTime,
          transmission_sig: signature.transmissionSig,
          cert_url: signature.certUrl,
          auth_algo: signature.authAlgo,
          webhook_id: webhookId,
          webhook_event: event,
        },
      );
      if (answer.status >= 500 || answer.status === 401) throw statusError("POST /v1/notifications/verify-webhook-signature", answer);
      const parsed = z.object({ verification_status: z.string() }).safeParse(answer.json);
      return answer.status === 200 && parsed.success && parsed.data.verification_status === "SUCCESS";
    },
  };
}

/** What an order says about the payment once it is no longer waiting for the shopper's approval. */
function judgeOrder(order: PayPalOrder, attemptId: string): PaymentVerification {
  const reference = order.id;
  if (order.status === "VOIDED") return { status: "declined", reference, message: PAYPAL_VOIDED_MESSAGE };
  if (order.status !== "COMPLETED") return { status: "pending", reference, message: `PayPal order is ${order.status}.` };

  const unit = order.purchase_units?.[0];
  if (unit?.custom_id !== undefined && unit.custom_id !== attemptId) {
    return { status: "declined", reference, message: PAYPAL_OTHER_CHECKOUT_MESSAGE };
  }
  const captures = unit?.payments?.captures ?? [];
  const completed = captures.find((candidate) => candidate.status === "COMPLETED");
  if (completed) {
    const amountCents = completed.amount ? centsOfDecimal(completed.amount.value) : null;
    if (!completed.amount || amountCents === null) {
      throw new PaymentError(`PayPal capture ${completed.id} has no usable amount.`, PROVIDER);
    }
    return { status: "approved", reference, amountCents, currency: completed.amount.currency_code };
  }
  const latest = captures.at(-1);
  if (!latest) throw new PaymentError(`PayPal order ${order.id} is COMPLETED without a capture.`, PROVIDER);
  if (latest.status === "PENDING") {
    return { status: "pending", reference, message: `PayPal capture is pending (${latest.status_details?.reason ?? "no reason given"}).` };
  }
  return { status: "declined", reference, message: PAYPAL_CAPTURE_DECLINED_MESSAGE };
}

function statusError(what: string, answer: Answer): PaymentError {
  const error = errorAnswer.safeParse(answer.json).data;
  return new PaymentError(
    `PayPal answered ${answer.status} to ${what}: ${error ? describeError(error) : "no error details"}`,
    PROVIDER,
    answer.status,
  );
}

function describeError(error: PayPalError): string {
  const detail = error.details?.[0];
  const parts = [error.name ?? error.error, detail?.issue, detail?.description ?? error.message ?? error.error_description];
  return parts.filter(Boolean).join(": ") || "no error details";
}

/** A business-rule refusal a shopper can read: PayPal's own description of the issue. */
function readableIssue(error: PayPalError): string {
  return error.details?.[0]?.description ?? error.message ?? PAYPAL_CAPTURE_DECLINED_MESSAGE;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
