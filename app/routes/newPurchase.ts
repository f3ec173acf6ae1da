import { z } from "zod";
import { sendOrderConfirmation } from "~/orders/order-email.server";
import { findOrderByDisplayId } from "~/orders/orders.server";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed } from "~/utils/json-route.server";

/**
 * Spec section 7: `POST /newPurchase { orderData, order_id }` sends the order's
 * confirmation email. The order must already be recorded by the server (after
 * the payment was verified); its content comes from the database, never from
 * `orderData`, and it is emailed once. This route creates and approves nothing.
 */
const payload = z.strictObject({
  order_id: z.string().trim().min(1, "order_id is required").max(40),
  orderData: z.record(z.string(), z.unknown()).optional(),
});

export const loader = methodNotAllowed;

export const action = jsonAction(
  payload,
  async ({ context, payload: { order_id } }) => {
    const { db } = context.store;
    const order = await findOrderByDisplayId(db, order_id);
    if (!order) return jsonError(404, "Order not found. Please check your Order ID.");

    const result = await sendOrderConfirmation(context.store, order);
    if (result === "failed") return jsonError(502, "The confirmation email could not be sent. Please try again later.");
    // Queued: the provider failed just now; the email is kept and sent again automatically.
    return jsonResponse({ order_id: order.orderId, email: result }, result === "queued" ? 202 : 200);
  },
  { rateLimit: ({ context }) => context.store.rateLimiter.hit(RATE_LIMITS.confirmationEmail, context.clientAddress) },
);
