import { handleEasyPostWebhook } from "~/orders/shipping.server";
import { webhookAction } from "~/http/webhook-outcome.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/easypost/webhook: EasyPost's tracker events, signed with X-Hmac-Signature (HMAC-SHA256 of
 * the raw body under EASYPOST_WEBHOOK_SECRET). A delivered tracker records its order's delivery date.
 */
export const action = webhookAction("EasyPost", handleEasyPostWebhook);

export const loader = methodNotAllowed;
