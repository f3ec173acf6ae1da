import type { ServiceDeps } from "~/store-runtime";
import { STOCK_GONE_MESSAGE } from "~/stock/stock.server";
import type { Database } from "~/db/database.server";
import { findAttemptByReference } from "~/payments/attempts.server";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { AFFIRM_TOKEN_PARAM } from "~/services/payments/affirm.server";

/** Affirm's checkout tokens (the checkout ids it answered) are short alphanumeric strings. */
const AFFIRM_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export function isAffirmToken(value: unknown): value is string {
  return typeof value === "string" && AFFIRM_TOKEN.test(value);
}

/**
 * Where Affirm's confirmation (`checkout_token` posted to /api/confirm-order)
 * sends the shopper: the return page of the attempt that started that Affirm
 * checkout, which authorizes the loan on the server and records the order.
 * Without a token the return page says so; with a token we never started, it
 * says the authorization failed.
 */
export async function affirmReturnPath(db: Database, affirmToken: string | null): Promise<string> {
  if (!isAffirmToken(affirmToken)) return "/checkout-authorized/affirm";
  const attempt = await findAttemptByReference(db, "affirm", affirmToken);
  const query = new URLSearchParams({
    checkout_token: attempt?.checkoutToken ?? "unknown",
    attempt: attempt?.id ?? "",
    [AFFIRM_TOKEN_PARAM]: affirmToken,
  });
  return `/checkout-authorized/affirm?${query}`;
}

export type AffirmChargeResult =
  | { status: "authorized"; transactionId: string; orderId: string }
  /** The loan was authorized, but the last units went to another order meanwhile: no order, the payment is given back. */
  | { status: "stock-gone"; message: string }
  | { status: "unknown" | "declined" | "pending" };

/**
 * `POST /api/authorize-charge`: authorizes the Affirm checkout behind this
 * token through the same path as the return page, so the order is recorded
 * once whichever comes first.
 */
export async function authorizeAffirmCharge(deps: ServiceDeps, affirmToken: string): Promise<AffirmChargeResult> {
  const { db } = deps;
  const attempt = await findAttemptByReference(db, "affirm", affirmToken);
  if (!attempt) return { status: "unknown" };
  const outcome = await confirmPayment(deps, {
    method: "affirm",
    checkoutToken: attempt.checkoutToken,
    attemptId: attempt.id,
    returnParams: new URLSearchParams({ [AFFIRM_TOKEN_PARAM]: affirmToken }),
  });
  switch (outcome.status) {
    case "paid":
      return { status: "authorized", transactionId: outcome.order.paymentReference ?? affirmToken, orderId: outcome.order.orderId };
    case "pending":
      return { status: "pending" };
    case "declined":
      return outcome.message === STOCK_GONE_MESSAGE ? { status: "stock-gone", message: outcome.message } : { status: "declined" };
    case "unknown":
      return { status: outcome.status };
  }
}
