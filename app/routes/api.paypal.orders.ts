import type { ActionFunctionArgs } from "@remix-run/node";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import { REFUSAL_STATUS } from "~/http/refusals";
import { createPayPalOrderFor, isSameOrigin, PAYPAL_ORDER_ERRORS, PAYPAL_ORDER_REQUEST } from "~/payments/paypal-order-request.server";
import { methodNotAllowed, readJsonPayload } from "~/utils/json-route.server";

/** The buttons' createOrder sends a few bytes; more is not theirs. */
const MAX_BODY_BYTES = 10_000;

/** POST { checkoutToken } -> { orderId, attemptId }: the PayPal buttons' createOrder; same origin only. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  if (!isSameOrigin(request, context.store.config)) return answer(403, { error: PAYPAL_ORDER_ERRORS.crossOrigin });
  const payload = await readJsonPayload(request, PAYPAL_ORDER_REQUEST, { maxBytes: MAX_BODY_BYTES });
  if (!payload.ok) return answer(400, { error: PAYPAL_ORDER_ERRORS.badRequest });
  const outcome = await createPayPalOrderFor(context.store, payload.data.checkoutToken, context.clientAddress);
  if (outcome.ok) return answer(200, { orderId: outcome.orderId, attemptId: outcome.attemptId });
  const { refusal, error, orderId, retryAfterMs } = outcome;
  const retryAfter: Record<string, string> = retryAfterMs !== undefined ? { "Retry-After": String(retryAfterSeconds(retryAfterMs)) } : {};
  return answer(REFUSAL_STATUS[refusal], orderId === undefined ? { error } : { error, orderId }, retryAfter);
}

function answer(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

export const loader = methodNotAllowed;
