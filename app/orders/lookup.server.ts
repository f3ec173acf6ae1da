import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { afterSaleLines, afterSaleRequests } from "~/db/schema";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";
import { refundOfOrder } from "~/payments/order-payment.server";
import { orderTaxNoteOf } from "~/tax/tax-note.server";
import { findOrderByDisplayId, type Order } from "./orders.server";
import { toPublicOrder, type PublicOrder, type PublicOrderExtras } from "./public-order";

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
  return order ? { status: "found", order: toPublicOrder(order, await orderPageExtras(db, order)) } : { status: "not-found" };
}

/** The order page's tax note, its returns and defect claims, and every refund: the whole payment's and each return's. */
async function orderPageExtras(db: Database, order: Order): Promise<PublicOrderExtras> {
  const requests = await db
    .select({
      id: afterSaleRequests.id,
      number: afterSaleRequests.number,
      kind: afterSaleRequests.kind,
      status: afterSaleRequests.status,
      createdAt: afterSaleRequests.createdAt,
      refundCents: afterSaleRequests.refundCents,
      refundedAt: afterSaleRequests.refundedAt,
    })
    .from(afterSaleRequests)
    .where(eq(afterSaleRequests.orderId, order.orderId))
    .orderBy(asc(afterSaleRequests.createdAt))
    .limit(100);
  const lines =
    requests.length === 0
      ? []
      : await db
          .select({ requestId: afterSaleLines.requestId, lineIndex: afterSaleLines.lineIndex, quantity: afterSaleLines.quantity })
          .from(afterSaleLines)
          .where(
            inArray(
              afterSaleLines.requestId,
              requests.map((request) => request.id),
            ),
          )
          .orderBy(asc(afterSaleLines.lineIndex));
  const paymentRefund = await refundOfOrder(db, order.orderId);
  const returnRefunds = requests.flatMap((request) =>
    request.refundedAt && request.refundCents
      ? [{ what: `Return ${request.number}`, amountCents: request.refundCents, refundedAt: request.refundedAt }]
      : [],
  );
  // The whole-payment refund gives back what the returns' refunds left of it.
  const returnedCents = returnRefunds.reduce((sum, refund) => sum + refund.amountCents, 0);
  const restCents = paymentRefund ? paymentRefund.amountCents - returnedCents : 0;
  const rest =
    paymentRefund && restCents > 0
      ? [{ what: returnedCents > 0 ? "Rest of the payment" : "Payment", amountCents: restCents, refundedAt: paymentRefund.refundedAt }]
      : [];
  return {
    taxNote: orderTaxNoteOf(order),
    afterSale: requests.map((request) => ({ ...request, lines: lines.filter((line) => line.requestId === request.id) })),
    refunds: [...returnRefunds, ...rest],
  };
}
