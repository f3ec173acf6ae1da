import type { OrderItem, OrderStatus } from "~/db/schema";
import { shipmentOf, type Shipment } from "./shipping";

/**
 * What anyone holding an Order ID may see: the items, totals, date and
 * status (once shipped: the carrier, tracking number and delivery date, which
 * say nothing about the shopper), and only the shopper's first name and city —
 * never the address, email or phone.
 */
export interface PublicOrder {
  orderId: string;
  status: OrderStatus;
  createdAt: string;
  firstName: string;
  city: string;
  items: Array<Pick<OrderItem, "productKey" | "title" | "model" | "imageUrl" | "unitPriceCents" | "quantity">>;
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  totalCents: number;
  /** Paid on the offline test payment page: no money moved. */
  isTestPayment: boolean;
  /** The payment given back (a cancelled order): amount and ISO date. */
  refund: { amountCents: number; refundedAt: string } | null;
  /** Carrier, tracking number and link, and the delivery date: the parcel's, shown with the status. */
  shipment: Shipment | null;
}

export function toPublicOrder(
  order: {
    orderId: string;
    status: OrderStatus;
    createdAt: Date;
    customer: { firstName: string; city: string };
    items: OrderItem[];
    subtotalCents: number;
    shippingCents: number;
    discountCents: number;
    totalCents: number;
    paymentProvider: string;
    carrier?: string | null;
    trackingNumber?: string | null;
    deliveredAt?: Date | null;
  },
  refund: { amountCents: number; refundedAt: Date } | null = null,
): PublicOrder {
  return {
    orderId: order.orderId,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    firstName: order.customer.firstName,
    city: order.customer.city,
    items: order.items.map(({ productKey, title, model, imageUrl, unitPriceCents, quantity }) => ({
      productKey,
      title,
      model,
      imageUrl,
      unitPriceCents,
      quantity,
    })),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    discountCents: order.discountCents,
    totalCents: order.totalCents,
    isTestPayment: order.paymentProvider === "test",
    refund: refund ? { amountCents: refund.amountCents, refundedAt: refund.refundedAt.toISOString() } : null,
    shipment:
      order.status === "Shipped"
        ? shipmentOf({
            carrier: order.carrier ?? null,
            trackingNumber: order.trackingNumber ?? null,
            deliveredAt: order.deliveredAt ?? null,
          })
        : null,
  };
}
