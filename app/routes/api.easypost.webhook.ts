import type { ActionFunctionArgs } from "@remix-run/node";
import { logError } from "~/observability/logger.server";
import { handleEasyPostWebhook } from "~/orders/shipping.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/easypost/webhook: EasyPost's tracker events, signed with X-Hmac-Signature (HMAC-SHA256 of
 * the raw body under EASYPOST_WEBHOOK_SECRET). A delivered tracker records its order's delivery date.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const rawBody = await request.text();
  try {
    const { status, body } = await handleEasyPostWebhook(context.store, request.headers, rawBody);
    return Response.json(body, { status });
  } catch (error) {
    logError("EasyPost webhook could not be handled", error);
    return Response.json({ error: "Temporarily unavailable." }, { status: 503 });
  }
}

export const loader = methodNotAllowed;
