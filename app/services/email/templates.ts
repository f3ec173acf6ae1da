import { contactLine, emailDocument } from "./layout";
import { escapeHtml, escapeMultilineHtml, formatLongDate, formatUsd, greetingName, safeHttpUrl, singleLine } from "./format";

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Postmark tag, so sent mail can be grouped by kind. */
  tag: string;
}

export interface OrderEmailItem {
  title: string;
  model: string;
  quantity: number;
  unitPriceCents: number;
}

export interface OrderConfirmationInput {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  orderId: string;
  orderUrl: string;
  customerFirstName: string;
  items: OrderEmailItem[];
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  taxCents: number;
  /** Why no tax was charged, or how it was estimated: said under the tax line. */
  taxNote?: string | null;
  totalCents: number;
  createdAt: Date;
  /** Paid on the offline test payment page: no money moved, and the email says so. */
  isTestPayment?: boolean;
  /** Time zone for the order date; UTC unless the caller knows better. */
  timeZone?: string;
}

export const TEST_ORDER_NOTICE = "TEST ORDER: paid on the store's test payment page. No money moved and nothing will ship.";

export function orderConfirmationEmail(input: OrderConfirmationInput): RenderedEmail {
  const orderUrl = safeHttpUrl(input.orderUrl);
  const greeting = greetingName(input.customerFirstName);
  const placedOn = formatLongDate(input.createdAt, input.timeZone);
  const totals = orderTotals(input);

  const text = [
    ...(input.isTestPayment ? [TEST_ORDER_NOTICE, ""] : []),
    `Hi ${greeting},`,
    "",
    `Thank you for your order with ${input.storeName}! We have received it and will email you when it ships.`,
    "",
    `Order ID: ${input.orderId}`,
    `Placed on: ${placedOn}`,
    "",
    "Items:",
    ...input.items.map(
      (item) =>
        `- ${item.title} (Model ${item.model}): ${item.quantity} x ${formatUsd(item.unitPriceCents)} = ${formatUsd(lineTotalCents(item))}`,
    ),
    "",
    ...totals.map(([label, amount]) => `${label}: ${amount}`),
    "",
    `View your order: ${orderUrl}`,
    "",
    contactLine(input).text,
    "",
    input.storeName,
  ].join("\n");

  const itemRows = input.items
    .map(
      (item) => `<tr>
<td style="padding:6px 8px;border-bottom:1px solid #ddd">${escapeHtml(item.title)}<br><small>Model ${escapeHtml(item.model)}</small></td>
<td style="padding:6px 8px;border-bottom:1px solid #ddd;text-align:center">${item.quantity}</td>
<td style="padding:6px 8px;border-bottom:1px solid #ddd;text-align:right">${formatUsd(item.unitPriceCents)}</td>
<td style="padding:6px 8px;border-bottom:1px solid #ddd;text-align:right">${formatUsd(lineTotalCents(item))}</td>
</tr>`,
    )
    .join("\n");
  const totalRows = totals
    .map(
      ([label, amount]) =>
        `<tr><td colspan="3" style="padding:4px 8px;text-align:right">${escapeHtml(label)}</td><td style="padding:4px 8px;text-align:right">${escapeHtml(amount)}</td></tr>`,
    )
    .join("\n");

  const html = emailDocument(
    `${input.isTestPayment ? `<p><strong>${escapeHtml(TEST_ORDER_NOTICE)}</strong></p>\n` : ""}<p>Hi ${escapeHtml(greeting)},</p>
<p>Thank you for your order with ${escapeHtml(input.storeName)}! We have received it and will email you when it ships.</p>
<p><strong>Order ID:</strong> ${escapeHtml(input.orderId)}<br><strong>Placed on:</strong> ${escapeHtml(placedOn)}</p>
<table style="border-collapse:collapse;width:100%">
<thead><tr><th style="text-align:left;padding:6px 8px">Item</th><th style="padding:6px 8px">Qty</th><th style="text-align:right;padding:6px 8px">Price</th><th style="text-align:right;padding:6px 8px">Total</th></tr></thead>
<tbody>
${itemRows}
${totalRows}
</tbody>
</table>
<p><a href="${escapeHtml(orderUrl)}">View your order ${escapeHtml(input.orderId)}</a></p>
${contactLine(input).html}
<p>${escapeHtml(input.storeName)}</p>`,
  );

  return {
    subject: singleLine(`${input.storeName}: order ${input.orderId} confirmed`),
    text,
    html,
    tag: "order-confirmation",
  };
}

export interface PaymentReturnedInput {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  customerFirstName: string;
  /** What happened, as the return page says it. */
  notice: string;
  amountCents: number;
  /** The order the checkout became, if it did. */
  orderId: string | null;
  orderUrl: string | null;
}

/** A payment the store gives back on its own (a second payment of one checkout): what, how much, and when it arrives. */
export function paymentReturnedEmail(input: PaymentReturnedInput): RenderedEmail {
  const greeting = greetingName(input.customerFirstName);
  const orderUrl = input.orderUrl ? safeHttpUrl(input.orderUrl) : null;
  const paragraphs = [
    input.notice,
    `The ${formatUsd(input.amountCents)} goes back to the card or account you paid with; banks usually show it within 5 to 10 business days.`,
    ...(input.orderId ? [`Your order ${input.orderId} is paid once and is not affected.`] : []),
  ];
  const text = [
    `Hi ${greeting},`,
    "",
    ...paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(orderUrl ? [`View your order: ${orderUrl}`, ""] : []),
    contactLine(input).text,
    "",
    input.storeName,
  ].join("\n");
  const html = emailDocument(
    `<p>Hi ${escapeHtml(greeting)},</p>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${orderUrl && input.orderId ? `<p><a href="${escapeHtml(orderUrl)}">View your order ${escapeHtml(input.orderId)}</a></p>` : ""}
${contactLine(input).html}
<p>${escapeHtml(input.storeName)}</p>`,
  );
  return { subject: singleLine(`${input.storeName}: we are refunding a payment`), text, html, tag: "payment-returned" };
}

export interface ContactMessageInput {
  name: string;
  email: string;
  phone: string;
  message: string;
  storeName: string;
}

/** Notifies the store of a contact form message; replies go straight to the visitor. */
export function contactMessageEmail(input: ContactMessageInput): RenderedEmail & { replyTo: string } {
  const fields: Array<[string, string]> = [
    ["Name", input.name],
    ["Email", input.email],
    ["Phone", input.phone || "not given"],
  ];
  const text = [
    `New message from the ${input.storeName} contact form.`,
    "",
    ...fields.map(([label, value]) => `${label}: ${value}`),
    "",
    "Message:",
    input.message,
  ].join("\n");

  const html = emailDocument(
    `<p>New message from the ${escapeHtml(input.storeName)} contact form.</p>
<p>${fields.map(([label, value]) => `<strong>${label}:</strong> ${escapeHtml(value)}`).join("<br>\n")}</p>
<p><strong>Message:</strong></p>
<blockquote style="margin:0;padding:8px 12px;border-left:3px solid #ccc">${escapeMultilineHtml(input.message)}</blockquote>`,
  );

  return {
    subject: singleLine(`New contact message from ${input.name}`),
    text,
    html,
    tag: "contact-message",
    replyTo: input.email,
  };
}

function lineTotalCents(item: OrderEmailItem): number {
  return item.unitPriceCents * item.quantity;
}

function orderTotals(input: OrderConfirmationInput): Array<[string, string]> {
  return [
    ["Subtotal", formatUsd(input.subtotalCents)],
    ["Shipping", input.shippingCents === 0 ? "Free" : formatUsd(input.shippingCents)],
    ...(input.discountCents > 0 ? [["Discount", `-${formatUsd(input.discountCents)}`] as [string, string]] : []),
    ["Sales tax", input.taxNote ? `${formatUsd(input.taxCents)} (${input.taxNote})` : formatUsd(input.taxCents)],
    ["Total", formatUsd(input.totalCents)],
  ];
}

interface CustomerEmailBase {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  customerFirstName: string;
  orderId: string;
  orderUrl: string;
}

/** A short customer email: greeting, paragraphs (each may carry a link), the order link and how to reach the store. */
function customerEmail(
  input: CustomerEmailBase,
  subject: string,
  tag: string,
  paragraphs: Array<string | { text: string; link: { label: string; url: string } }>,
): RenderedEmail {
  const greeting = greetingName(input.customerFirstName);
  const orderUrl = safeHttpUrl(input.orderUrl);
  const text = [
    `Hi ${greeting},`,
    "",
    ...paragraphs.flatMap((paragraph) =>
      typeof paragraph === "string" ? [paragraph, ""] : [paragraph.text, `${paragraph.link.label}: ${safeHttpUrl(paragraph.link.url)}`, ""],
    ),
    `View your order: ${orderUrl}`,
    "",
    contactLine(input).text,
    "",
    input.storeName,
  ].join("\n");
  const html = emailDocument(
    `<p>Hi ${escapeHtml(greeting)},</p>
${paragraphs
  .map((paragraph) =>
    typeof paragraph === "string"
      ? `<p>${escapeHtml(paragraph)}</p>`
      : `<p>${escapeHtml(paragraph.text)}<br><a href="${escapeHtml(safeHttpUrl(paragraph.link.url))}">${escapeHtml(paragraph.link.label)}</a></p>`,
  )
  .join("\n")}
<p><a href="${escapeHtml(orderUrl)}">View your order ${escapeHtml(input.orderId)}</a></p>
${contactLine(input).html}
<p>${escapeHtml(input.storeName)}</p>`,
  );
  return { subject: singleLine(subject), text, html, tag };
}

export interface OrderShippedInput extends CustomerEmailBase {
  carrier: string;
  trackingNumber: string;
  /** The carrier's tracking page; null for a carrier without one (the number is still given). */
  trackingUrl: string | null;
  /** A shipped order's carrier or number was corrected: the email gives the right one. */
  corrected?: boolean;
  /** The order's signed return page, which needs no checkout email; none: no return paragraph. */
  returnUrl?: string | null;
}

/** "Your order has shipped": carrier, tracking number and the carrier's tracking link. */
export function orderShippedEmail(input: OrderShippedInput): RenderedEmail {
  const parcel = `Carrier: ${input.carrier}. Tracking number: ${input.trackingNumber}.`;
  return customerEmail(
    input,
    input.corrected
      ? `${input.storeName}: corrected tracking for order ${input.orderId}`
      : `${input.storeName}: your order ${input.orderId} has shipped`,
    input.corrected ? "order-tracking-corrected" : "order-shipped",
    [
      input.corrected
        ? `We gave you the wrong tracking details for order ${input.orderId}. These are the right ones.`
        : `Your order has shipped! Order ${input.orderId} is on its way.`,
      input.trackingUrl ? { text: parcel, link: { label: "Track your parcel", url: input.trackingUrl } } : parcel,
      ...(input.returnUrl
        ? [
            {
              text: "Something not right? You can return it within 30 days of delivery.",
              link: { label: "Start a return", url: input.returnUrl },
            },
          ]
        : []),
    ],
  );
}

export interface OrderCancelledInput extends CustomerEmailBase {
  /** What happens to the payment, as order-email.server.ts words it for the order's provider. */
  payment: string;
}

/** The order was cancelled, and what happens to the money. */
export function orderCancelledEmail(input: OrderCancelledInput): RenderedEmail {
  return customerEmail(input, `${input.storeName}: order ${input.orderId} was cancelled`, "order-cancelled", [
    `Your order ${input.orderId} was cancelled.`,
    input.payment,
  ]);
}

export interface RefundIssuedInput extends CustomerEmailBase {
  amountCents: number;
  /** How it was paid: "your card", "your PayPal account", ... */
  method: string;
  /** When the money typically arrives, per provider. */
  arrival: string;
}

/** A refund of the order's payment went through: amount, where it goes and when it arrives. */
export function refundIssuedEmail(input: RefundIssuedInput): RenderedEmail {
  return customerEmail(input, `${input.storeName}: refund issued for order ${input.orderId}`, "refund-issued", [
    `We have refunded ${formatUsd(input.amountCents)} for order ${input.orderId} to ${input.method}.`,
    input.arrival,
  ]);
}

export interface ReturnLinkInput extends CustomerEmailBase {
  /** The order's signed return page (it proves the order without the checkout email). */
  returnUrl: string;
}

/** The link a customer asked for on the return page, to open it without typing the checkout email. */
export function returnLinkEmail(input: ReturnLinkInput): RenderedEmail {
  return customerEmail(input, `${input.storeName}: your link for order ${input.orderId}`, "return-link", [
    `Someone, we hope you, asked on our website for a link to request a return or report a defect for order ${input.orderId}.`,
    {
      text: "The link opens the order's return page, already confirmed as yours. It works for 60 days.",
      link: { label: "Open your order's return page", url: input.returnUrl },
    },
    "If you did not ask for it, you can ignore this email: nothing changes without the link.",
  ]);
}
