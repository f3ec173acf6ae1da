import type { ActionFunctionArgs } from "@remix-run/node";
import { handleAuthorizeNetWebhook } from "~/payments/webhooks.server";
import { logError } from "~/observability/logger.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * POST /api/authorizenet/webhook: Authorize.Net notifications
 * (net.authorize.payment.*), signed with X-ANET-Signature (HMAC-SHA512 of the
 * raw body under AUTHORIZE_NET_SIGNATURE_KEY). A notification only makes the
 * server ask Authorize.Net about the transaction it names.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const rawBody = await request.text();
  try {
    const { status, body } = await handleAuthorizeNetWebhook(context.store, request.headers, rawBody);
    return Response.json(body, { status });
  } catch (error) {
    logError("Authorize.Net webhook could not be handled", error);
    return Response.json({ error: "Temporarily unavailable." }, { status: 503 });
  }
}

export const loader = methodNotAllowed;
