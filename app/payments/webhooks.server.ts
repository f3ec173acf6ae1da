import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import {
  authorizeNetTransactionOfEvent,
  createAuthorizeNetFromConfig,
  isAuthorizeNetConfigured,
  isAuthorizeNetSignatureValid,
} from "~/services/payments/authorize-net.server";
import { createPayPalProviderFromConfig, isPayPalConfigured, paypalOrderIdOfEvent } from "~/services/payments/paypal.server";
import { PaymentError } from "~/services/payments/types";
import { confirmPaymentByReference, type PaymentOutcome } from "./confirm-payment.server";
import { logError } from "~/http/logger.server";

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
}

const INVALID_SIGNATURE: WebhookAnswer = { status: 400, body: { error: "Invalid signature." } };
const RETRY_LATER: WebhookAnswer = { status: 503, body: { error: "Payment not verified yet." } };

export async function handlePayPalWebhook(db: Database, config: Config, headers: Headers, rawBody: string): Promise<WebhookAnswer> {
  const event = parseJson(rawBody);
  const signature = {
    transmissionId: headers.get("paypal-transmission-id") ?? "",
    transmissionTime: headers.get("paypal-transmission-time") ?? "",
    transmissionSig: headers.get("paypal-transmission-sig") ?? "",
    certUrl: headers.get("paypal-cert-url") ?? "",
    authAlgo: headers.get("paypal-auth-algo") ?? "",
  };
  const webhookId = config.PAYPAL_WEBHOOK_ID;
  if (event === undefined || !webhookId || !isPayPalConfigured(config) || Object.values(signature).some((value) => value === "")) {
    return INVALID_SIGNATURE;
  }
  const paypal = createPayPalProviderFromConfig(config);
  try {
    if (!(await paypal.verifyWebhookSignature(signature, webhookId, event))) return INVALID_SIGNATURE;
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError("PayPal webhook: the signature could not be verified now", error);
    return RETRY_LATER;
  }
  const orderId = paypalOrderIdOfEvent(event);
  if (!orderId) return { status: 200, body: { received: true, handled: false } };
  return answerFor(await confirmPaymentByReference(db, config, "paypal", orderId));
}

export async function handleAuthorizeNetWebhook(db: Database, config: Config, headers: Headers, rawBody: string): Promise<WebhookAnswer> {
  const key = config.AUTHORIZE_NET_SIGNATURE_KEY;
  if (!key || !isAuthorizeNetSignatureValid(rawBody, headers.get("x-anet-signature"), key)) return INVALID_SIGNATURE;
  const transId = authorizeNetTransactionOfEvent(parseJson(rawBody));
  if (!transId || !isAuthorizeNetConfigured(config)) return { status: 200, body: { received: true, handled: false } };
  let invoiceNumber: string | null;
  try {
    invoiceNumber = await createAuthorizeNetFromConfig(config).invoiceNumberOf(transId);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Authorize.Net webhook: transaction ${transId} could not be looked up`, error);
    return RETRY_LATER;
  }
  if (!invoiceNumber) return { status: 200, body: { received: true, handled: false } };
  const outcome = await confirmPaymentByReference(db, config, "authorizenet", invoiceNumber, new URLSearchParams({ trans_id: transId }));
  return answerFor(outcome);
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
