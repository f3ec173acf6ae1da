import type { ServiceDeps } from "~/store-runtime";
import { authorizeNetTransactionOfEvent, isAuthorizeNetSignatureValid } from "~/services/payments/authorize-net-webhook.server";
import type { PayPalProvider } from "~/services/payments/paypal.server";
import {
  isPayPalWebhookEvent,
  paypalOrderIdOfEvent,
  paypalWebhookSignatureOf,
  type PayPalWebhookSignature,
} from "~/services/payments/paypal-webhook.server";
import { PaymentError } from "~/services/payments/types";
import { confirmPaymentByReference, type PaymentOutcome } from "./confirm-payment.server";
import { log, logError } from "~/observability/logger.server";
import { quietCounter } from "~/http/quiet-log";
import { webhookVerificationFailures } from "~/observability/metrics.server";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";

/**
 * Provider webhooks. Each is checked the provider's way (a signature the
 * provider made for this store), then only names a payment to look up: the
 * order is recorded, if at all, by the same confirmation as the return page,
 * which asks the provider itself. Answers: 400 for anything unsigned or
 * mis-signed (also while the webhook is not configured, so a probe learns
 * nothing), 200 once handled or when there is nothing to do, 503 when the
 * provider or the database could not be asked, so the provider retries.
 */
export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
  /** When the provider should deliver again (a Retry-After header). */
  retryAfterMs?: number;
}

const INVALID_SIGNATURE: WebhookAnswer = { status: 400, body: { error: "Invalid signature." } };
const RETRY_LATER: WebhookAnswer = { status: 503, body: { error: "Payment not verified yet." } };

/** PayPal deliveries refused or not verified: one line per kind and burst, without a stack. */
const paypalRefusals = quietCounter((msg, fields) => log("warn", msg, fields));

/**
 * PayPal's signature can only be checked by asking PayPal, so a delivery costs an outbound call (and a
 * token now and then). What can never verify is refused without asking, and the calls are capped for
 * the whole store (forged posts come from anywhere): past the cap the answer is 503 with Retry-After,
 * and PayPal delivers a real event again later.
 */
export async function handlePayPalWebhook(
  deps: Pick<StoreRuntime, "rateLimiter"> & ServiceDeps,
  headers: Headers,
  rawBody: string,
): Promise<WebhookAnswer> {
  const { config, rateLimiter, payments } = deps;
  const webhookId = config.PAYPAL_WEBHOOK_ID;
  const paypal = payments.paypal;
  if (!webhookId || !paypal) return INVALID_SIGNATURE;
  const event = parseJson(rawBody);
  const signature = paypalWebhookSignatureOf(headers, new Date());
  if (!signature || !isPayPalWebhookEvent(event)) {
    paypalRefusals.count("PayPal webhook: refused a delivery PayPal never sends (headers or body out of shape)");
    return refusedSignature("paypal");
  }
  const limit = await rateLimiter.hit(RATE_LIMITS.paypalWebhookVerification, "store");
  if (!limit.allowed) {
    paypalRefusals.count("PayPal webhook: not verified, the store asks PayPal at most its limit", {
      limit: RATE_LIMITS.paypalWebhookVerification.limit,
    });
    return { ...RETRY_LATER, retryAfterMs: limit.retryAfterMs };
  }
  const verified = await verifyPayPalSignature(paypal, signature, webhookId, event);
  if (verified !== true) return verified;
  const orderId = paypalOrderIdOfEvent(event);
  if (!orderId) return { status: 200, body: { received: true, handled: false } };
  return answerFor(await confirmPaymentByReference(deps, "paypal", orderId));
}

/** True when PayPal says it signed the event; else the answer to give. */
async function verifyPayPalSignature(
  paypal: PayPalProvider,
  signature: PayPalWebhookSignature,
  webhookId: string,
  event: unknown,
): Promise<true | WebhookAnswer> {
  try {
    if (await paypal.verifyWebhookSignature(signature, webhookId, event)) return true;
    paypalRefusals.count("PayPal webhook: PayPal did not verify a delivery's signature");
    return refusedSignature("paypal");
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    paypalRefusals.count("PayPal webhook: the signature could not be verified now", { reason: error.message });
    return RETRY_LATER;
  }
}

export async function handleAuthorizeNetWebhook(deps: ServiceDeps, headers: Headers, rawBody: string): Promise<WebhookAnswer> {
  const { config, payments } = deps;
  const key = config.AUTHORIZE_NET_SIGNATURE_KEY;
  if (!key) return INVALID_SIGNATURE;
  if (!isAuthorizeNetSignatureValid(rawBody, headers.get("x-anet-signature"), key)) return refusedSignature("authorizenet");
  const transId = authorizeNetTransactionOfEvent(parseJson(rawBody));
  if (!transId || !payments.authorizeNet) return { status: 200, body: { received: true, handled: false } };
  let invoiceNumber: string | null;
  try {
    invoiceNumber = await payments.authorizeNet.invoiceNumberOf(transId);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Authorize.Net webhook: transaction ${transId} could not be looked up`, error);
    return RETRY_LATER;
  }
  if (!invoiceNumber) return { status: 200, body: { received: true, handled: false } };
  const outcome = await confirmPaymentByReference(deps, "authorizenet", invoiceNumber, new URLSearchParams({ trans_id: transId }));
  return answerFor(outcome);
}

/**
 * A delivery to a configured webhook refused for its signature, counted for the operator: a burst of them is
 * a forger, or a secret that no longer matches the provider's (rotated on one side only). Posts to a webhook
 * that is not configured are refused the same way but not counted: they can only be probes.
 */
function refusedSignature(provider: "paypal" | "authorizenet"): WebhookAnswer {
  webhookVerificationFailures.inc({ provider });
  return INVALID_SIGNATURE;
}

function answerFor(outcome: PaymentOutcome): WebhookAnswer {
  if (outcome.status === "pending") return RETRY_LATER;
  return { status: 200, body: { received: true, handled: outcome.status !== "unknown", outcome: outcome.status } };
}

function parseJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    return undefined;
  }
}
