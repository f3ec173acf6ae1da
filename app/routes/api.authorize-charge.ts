import { z } from "zod";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed, tooManyRequests } from "~/utils/json-route.server";
import { authorizeAffirmCharge, isAffirmToken } from "~/payments/affirm-confirmation.server";
import { AFFIRM_AUTHORIZATION_FAILED } from "~/services/payments/affirm.server";

const bodySchema = z.object({ checkoutToken: z.string().trim().refine(isAffirmToken) });

/**
 * `POST /api/authorize-charge` `{ checkoutToken }` (the token Affirm gave the
 * shopper) -> `{ transactionId, orderId }`: authorizes the loan on the server
 * and records the order, exactly as the return page does. JSON from our own
 * pages only: a cross-site page cannot send JSON without a CORS preflight,
 * which this route never grants, and a foreign Origin is refused.
 * (JSON Responses, not data(): single fetch drops data()'s status in resource routes.)
 */
export const action = jsonAction(bodySchema, async ({ context, payload }) => {
  const limit = await context.store.rateLimiter.hit(RATE_LIMITS.paymentStart, context.clientAddress);
  if (!limit.allowed) return tooManyRequests(limit, PAYMENT_RATE_LIMITED_MESSAGE);
  const result = await authorizeAffirmCharge(context.store, payload.checkoutToken);
  switch (result.status) {
    case "authorized":
      return jsonResponse({ transactionId: result.transactionId, orderId: result.orderId });
    case "unknown":
      return jsonError(404, AFFIRM_AUTHORIZATION_FAILED);
    case "declined":
      return jsonError(402, AFFIRM_AUTHORIZATION_FAILED);
    case "stock-gone":
      return jsonError(409, result.message);
    case "pending":
      return jsonError(502, AFFIRM_AUTHORIZATION_FAILED);
  }
});

export const loader = methodNotAllowed;
