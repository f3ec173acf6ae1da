import type { ActionFunctionArgs } from "@remix-run/node";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import { createPayPalOrderFor } from "~/payments/paypal-order-request.server";
import { methodNotAllowed } from "~/utils/json-route.server";

/** POST { checkoutToken } -> { orderId, attemptId }: the PayPal buttons' createOrder. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { status, body, retryAfterMs } = await createPayPalOrderFor(context.store, request, context.clientAddress);
  const retryAfter: Record<string, string> = retryAfterMs !== undefined ? { "Retry-After": String(retryAfterSeconds(retryAfterMs)) } : {};
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...retryAfter } });
}

export const loader = methodNotAllowed;
