import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { publicBaseUrl } from "~/config.server";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { hitRateLimit, RATE_LIMITS } from "~/security/rate-limit.server";
import { tooManyRequests } from "~/utils/json-route.server";
import { authorizeAffirmCharge, isAffirmToken } from "~/payments/affirm-confirmation.server";
import { AFFIRM_AUTHORIZATION_FAILED } from "~/services/payments/affirm.server";
import { isCrossSiteRequest } from "~/utils/same-origin.server";

const bodySchema = z.object({ checkoutToken: z.string().trim().refine(isAffirmToken) });

/**
 * `POST /api/authorize-charge` `{ checkoutToken }` (the token Affirm gave the
 * shopper) -> `{ transactionId, orderId }`: authorizes the loan on the server
 * and records the order, exactly as the return page does. JSON from our own
 * pages only: a cross-site page cannot send JSON without a CORS preflight,
 * which this route never grants, and a foreign Origin is refused.
 * (Response.json, not data(): single fetch drops data()'s status in resource routes.)
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405, headers: { Allow: "POST" } });
  if (isCrossSiteRequest(request, publicBaseUrl(context.store.config)))
    return Response.json({ error: "Cross-site requests are not accepted." }, { status: 403 });
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
    return Response.json({ error: "Send a JSON body." }, { status: 415 });
  }
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "checkoutToken is required." }, { status: 400 });

  const db = context.store.db;
  const limit = await hitRateLimit(db, RATE_LIMITS.paymentStart, context.clientAddress);
  if (!limit.allowed) return tooManyRequests(limit, PAYMENT_RATE_LIMITED_MESSAGE);
  const result = await authorizeAffirmCharge(db, context.store.config, parsed.data.checkoutToken);
  switch (result.status) {
    case "authorized":
      return Response.json({ transactionId: result.transactionId, orderId: result.orderId });
    case "unknown":
      return Response.json({ error: AFFIRM_AUTHORIZATION_FAILED }, { status: 404 });
    case "declined":
      return Response.json({ error: AFFIRM_AUTHORIZATION_FAILED }, { status: 402 });
    case "pending":
      return Response.json({ error: AFFIRM_AUTHORIZATION_FAILED }, { status: 502 });
  }
}

export function loader() {
  return Response.json({ error: "Method not allowed." }, { status: 405, headers: { Allow: "POST" } });
}
