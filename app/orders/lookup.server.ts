import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";
import { refundOfOrder } from "~/payments/order-payment.server";
import { findOrderByDisplayId } from "./orders.server";
import { toPublicOrder, type PublicOrder } from "./public-order";

export type OrderLookup =
  { status: "found"; order: PublicOrder } | { status: "not-found" } | { status: "rate-limited"; retryAfterMs: number };

/**
 * The public order lookup (/order-status). What it needs is something only the
 * customer has: the Order ID from the confirmation email, 10 characters drawn
 * at random from 31 (about 8e14 ids, see order-id.ts), so ids cannot be walked
 * or guessed. Every lookup counts against the client address's limit, found or
 * not, so guessing is slow as well as hopeless; an id that is malformed and an
 * id that matches no order get the same answer. A found order shows only what
 * PublicOrder allows (first name and city, never the address, email or phone).
 */
export async function lookUpOrder(
  { db, rateLimiter }: Pick<StoreRuntime, "db" | "rateLimiter">,
  input: string,
  clientAddress: string,
): Promise<OrderLookup> {
  const limit = await rateLimiter.hit(RATE_LIMITS.orderLookup, clientAddress);
  if (!limit.allowed) return { status: "rate-limited", retryAfterMs: limit.retryAfterMs };
  const order = await findOrderByDisplayId(db, input);
  return order ? { status: "found", order: toPublicOrder(order, await refundOfOrder(db, order.orderId)) } : { status: "not-found" };
}
