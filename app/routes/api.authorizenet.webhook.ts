import { handleAuthorizeNetWebhook } from "~/payments/webhooks.server";
import { webhookAction } from "~/http/webhook-outcome.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/authorizenet/webhook: Authorize.Net notifications
 * (net.authorize.payment.*), signed with X-ANET-Signature (HMAC-SHA512 of the
 * raw body under AUTHORIZE_NET_SIGNATURE_KEY). A notification only makes the
 * server ask Authorize.Net about the transaction it names.
 */
export const action = webhookAction("Authorize.Net", handleAuthorizeNetWebhook);

export const loader = methodNotAllowed;
