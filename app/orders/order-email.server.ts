import { eq } from "drizzle-orm";
import { getConfig } from "~/config.server";
import type { Database } from "~/db/database.server";
import { storeSettings } from "~/db/schema";
import { sendEmailSafely, type SafeSendResult } from "~/services/email/index.server";
import { orderConfirmationEmail } from "~/services/email/templates";
import type { EmailMessage } from "~/services/email/types";
import type { Order } from "./orders.server";

export function orderStatusUrl(baseUrl: string, orderId: string): string {
  return `${baseUrl}/order-status/${encodeURIComponent(orderId)}`;
}

export type ConfirmationResult = "sent" | "already-sent" | "failed";

/**
 * The "confirmation sent" flag lives in the key-value `store_settings` table
 * (one row per order), so sending once needs no schema change.
 */
export function confirmationSentKey(orderId: string): string {
  return `order_confirmation_sent:${orderId}`;
}

/**
 * Emails an order's confirmation once, whoever asks (payment confirmation,
 * `/newPurchase`, a retry): the first caller claims the order's sent flag,
 * later callers find it taken. A failed send is logged (never thrown) and
 * gives the flag back, so a later request can try again.
 */
export async function sendOrderConfirmation(
  db: Database,
  order: Order,
  baseUrl: string,
  {
    send = (message: EmailMessage) => sendEmailSafely(message, { db }),
  }: { send?: (message: EmailMessage) => Promise<SafeSendResult> } = {},
): Promise<ConfirmationResult> {
  try {
    const database = db;
    const key = confirmationSentKey(order.orderId);
    const claimed = await database
      .insert(storeSettings)
      .values({ key, value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: storeSettings.key });
    if (claimed.length === 0) return "already-sent";

    const result = await send({ to: order.customer.email, ...confirmationEmailFor(order, baseUrl) });
    if (result.sent) return "sent";
    await database.delete(storeSettings).where(eq(storeSettings.key, key));
    return "failed";
  } catch (error) {
    // The order is recorded whatever happens to its email.
    console.error(`Order ${order.orderId}: confirmation email not handled: ${String(error)}`);
    return "failed";
  }
}

function confirmationEmailFor(order: Order, baseUrl: string) {
  const config = getConfig();
  return orderConfirmationEmail({
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    orderId: order.orderId,
    orderUrl: orderStatusUrl(baseUrl, order.orderId),
    customerFirstName: order.customer.firstName,
    items: order.items.map((item) => ({
      title: item.title,
      model: item.model,
      quantity: item.quantity,
      unitPriceCents: item.unitPriceCents,
    })),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    discountCents: order.discountCents,
    totalCents: order.totalCents,
    createdAt: order.createdAt,
    isTestPayment: order.paymentProvider === "test",
  });
}
