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
import type { WebhookOutcome } from "~/http/webhook-outcome.server";
import { paymentReferenceOfEvent, verifiedStripeEvent } from "~/services/payments/stripe.server";

/**
 * Provider webhooks. Each is checked the provider's way (a signature the
 * provider made for this store), then only names a payment to look up: the
 * order is recorded, if at all, by the same confirmation as the return page,
 * which asks the provider itself. Outcomes (app/http/webhook-outcome.server.ts): refused for anything
 * unsigned or mis-signed (also while the webhook is not configured, so a probe learns nothing; Stripe's
 * says it is not configured), received once handled or when there is nothing to do, retry when the
 * provider or the database could not be asked, so the provider delivers again.
 */
const INVALID_SIGNATURE: WebhookOutcome = { kind: "refused", error: "Invalid signature." };
const RETRY_LATER: Extract<WebhookOutcome, { kind: "retry" }> = { kind: "retry", error: "Payment not verified yet." };
const NOTHING_TO_DO: WebhookOutcome = { kind: "received", handled: false };

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
): Promise<WebhookOutcome> {
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
  if (!orderId) return NOTHING_TO_DO;
  return answerFor(await confirmPaymentByReference(deps, "paypal", orderId));
}

/** True when PayPal says it signed the event; else the answer to give. */
async function verifyPayPalSignature(
  paypal: PayPalProvider,
  signature: PayPalWebhookSignature,
  webhookId: string,
  event: unknown,
): Promise<true | WebhookOutcome> {
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

export async function handleAuthorizeNetWebhook(deps: ServiceDeps, headers: Headers, rawBody: string): Promise<WebhookOutcome> {
  const { config, payments } = deps;
  const key = config.AUTHORIZE_NET_SIGNATURE_KEY;
  if (!key) return INVALID_SIGNATURE;
  if (!isAuthorizeNetSignatureValid(rawBody, headers.get("x-anet-signature"), key)) return refusedSignature("authorizenet");
  const transId = authorizeNetTransactionOfEvent(parseJson(rawBody));
  if (!transId || !payments.authorizeNet) return NOTHING_TO_DO;
  let invoiceNumber: string | null;
  try {
    invoiceNumber = await payments.authorizeNet.invoiceNumberOf(transId);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Authorize.Net webhook: transaction ${transId} could not be looked up`, error);
    return RETRY_LATER;
  }
  if (!invoiceNumber) return NOTHING_TO_DO;
  const outcome = await confirmPaymentByReference(deps, "authorizenet", invoiceNumber, new URLSearchParams({ trans_id: transId }));
  return answerFor(outcome);
}

/**
 * Stripe's events, signed with the endpoint secret (STRIPE_WEBHOOK_SECRET) over the raw body. A succeeded
 * PaymentIntent or a completed Checkout Session records its order if the shopper never came back; recording
 * is idempotent, so replays and the return page add nothing.
 */
export async function handleStripeWebhook(deps: ServiceDeps, headers: Headers, rawBody: string): Promise<WebhookOutcome> {
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!secret) return { kind: "not-configured", error: "Stripe webhooks are not configured." };
  const event = await verifiedStripeEvent(rawBody, headers.get("Stripe-Signature"), secret);
  if (!event) {
    webhookVerificationFailures.inc({ provider: "stripe" });
    return INVALID_SIGNATURE;
  }
  const reference = paymentReferenceOfEvent(event);
  if (!reference) return NOTHING_TO_DO;
  try {
    // Pending: Stripe could not be asked to confirm its own event; a retry will.
    return answerFor(await confirmPaymentByReference(deps, "stripe", reference));
  } catch (error) {
    logError(`Stripe webhook ${event.id} could not be recorded`, error);
    return { kind: "retry", error: "Temporarily unavailable." };
  }
}

/**
 * A delivery to a configured webhook refused for its signature, counted for the operator: a burst of them is
 * a forger, or a secret that no longer matches the provider's (rotated on one side only). Posts to a webhook
 * that is not configured are refused the same way but not counted: they can only be probes.
 */
function refusedSignature(provider: "paypal" | "authorizenet"): WebhookOutcome {
  webhookVerificationFailures.inc({ provider });
  return INVALID_SIGNATURE;
}

function answerFor(outcome: PaymentOutcome): WebhookOutcome {
  if (outcome.status === "pending") return RETRY_LATER;
  return { kind: "received", handled: outcome.status !== "unknown", outcome: outcome.status };
}

function parseJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    return undefined;
  }
}
