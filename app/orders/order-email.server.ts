import { getConfig } from "~/config.server";
import type { Database } from "~/db/database.server";
import { sendEmailSafely } from "~/services/email/index.server";
import { orderConfirmationEmail } from "~/services/email/templates";
import type { Order } from "./orders.server";

export function orderStatusUrl(baseUrl: string, orderId: string): string {
  return `${baseUrl}/order-status/${encodeURIComponent(orderId)}`;
}

/** Emails the confirmation; a failure is logged and never touches the order. */
export async function sendOrderConfirmation(db: Database, order: Order, baseUrl: string) {
  const config = getConfig();
  const email = orderConfirmationEmail({
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
  });
  return sendEmailSafely({ to: order.customer.email, ...email }, { db });
}
