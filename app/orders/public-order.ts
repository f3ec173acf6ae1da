import type { AfterSaleKind, AfterSaleStatus, OrderItem, OrderStatus } from "~/db/schema";
import { shipmentOf, type Shipment } from "./shipping";

/**
 * What anyone holding an Order ID may see: the items, totals, date and
 * status (once shipped: the carrier, tracking number and delivery date, which
 * say nothing about the shopper), its returns and defect claims with their status, every refund with
 * its amount and date, and only the shopper's first name and city — never the address, email or phone
 * (nor a return's authorization number, which opens its instructions, or staff's words).
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
  /** The sales tax charged (0 for an order from before tax), and what the TAX line says about it. */
  taxCents: number;
  taxNote: string | null;
  totalCents: number;
  /** Paid on the offline test payment page: no money moved. */
  isTestPayment: boolean;
  /** Each return and defect claim: its number, kind, status, date and what it covers. */
  afterSale: PublicAfterSaleRequest[];
  /** Money given back, oldest first: a return's refund, or the whole payment (a cancelled order). */
  refunds: PublicRefund[];
  /** Carrier, tracking number and link, and the delivery date: the parcel's, shown with the status. */
  shipment: Shipment | null;
}

export interface PublicAfterSaleRequest {
  number: string;
  kind: AfterSaleKind;
  status: AfterSaleStatus;
  createdAt: string;
  items: { title: string; quantity: number }[];
}

export interface PublicRefund {
  /** "Return R-7K3P9Q", or "Payment" for the whole payment given back. */
  what: string;
  amountCents: number;
  refundedAt: string;
}

/** What an order page shows beside the order itself (none for a page that only thanks for it). */
export interface PublicOrderExtras {
  taxNote: string | null;
  afterSale: {
    number: string;
    kind: AfterSaleKind;
    status: AfterSaleStatus;
    createdAt: Date;
    lines: { lineIndex: number; quantity: number }[];
  }[];
  refunds: { what: string; amountCents: number; refundedAt: Date }[];
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
    taxCents: number;
    totalCents: number;
    paymentProvider: string;
    carrier?: string | null;
    trackingNumber?: string | null;
    deliveredAt?: Date | null;
  },
  extras: PublicOrderExtras = { taxNote: null, afterSale: [], refunds: [] },
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
    taxCents: order.taxCents,
    taxNote: extras.taxNote,
    totalCents: order.totalCents,
    isTestPayment: order.paymentProvider === "test",
    afterSale: extras.afterSale.map((request) => ({
      number: request.number,
      kind: request.kind,
      status: request.status,
      createdAt: request.createdAt.toISOString(),
      items: request.lines.map((line) => ({ title: order.items[line.lineIndex]?.title ?? "An item", quantity: line.quantity })),
    })),
    refunds: extras.refunds
      .map((refund) => ({ what: refund.what, amountCents: refund.amountCents, refundedAt: refund.refundedAt.toISOString() }))
      .sort((a, b) => a.refundedAt.localeCompare(b.refundedAt)),
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
