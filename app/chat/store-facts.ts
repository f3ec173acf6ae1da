/**
 * The store's facts in short sentences, for the chat: the quick-option
 * replies, the offline answers and the language model's system prompt all
 * use these, so they can never disagree. Sources: the spec's policies
 * (section 1), the contact FAQ (3-5 business days, US only, tracking by
 * email) and the constants of section 9; the policy pages
 * (app/content/policies.ts) say the same at length.
 */

export interface StoreContact {
  name: string;
  phone: string;
  email: string;
}

export type FactTopic = "delivery" | "returns" | "defective" | "orders" | "payment" | "privacy" | "seasoning";

export const DELIVERY_FACTS: readonly string[] = [
  "Shipping is free on orders over $49; cart orders of $49 or less pay $6.95 shipping.",
  "Orders leave our warehouse within 24 hours, except The Outdoor Plus products, which leave in 4 - 6 weeks.",
  "Most orders arrive within 3-5 business days.",
  "We ship only to addresses in the United States.",
  "Large items travel by freight and are usually delivered curbside on a pallet with a signature; in-home delivery costs extra, remote locations may cost extra, and we advise at least two people to unload.",
  "Once the carrier has the shipment, the delivery address and date can no longer be changed.",
  "We email tracking details when your order ships.",
];

export const RETURN_FACTS: readonly string[] = [
  "Items can be returned within 30 days of delivery if they are new, unused and in their original packaging.",
  "Used or assembled items, clearance items, warehouse deals, custom, special-order and made-to-order items, and items marked non-returnable cannot be returned.",
  "A return is requested first; on approval we email a return authorization and labels, and the return must ship within 30 days of approval.",
  "Shipping both ways is deducted from the refund; freight returns need a photo first; unauthorized returns are not refunded.",
];

export const DEFECTIVE_FACTS: readonly string[] = [
  "Defects are handled through the manufacturer's warranty: send us the serial numbers, a description and photos or a video.",
  "Please inspect deliveries within 48 hours; labor costs are not reimbursed, and there are no claims after the warranty period.",
];

export const ORDER_FACTS: readonly string[] = [
  "Anyone can look up an order on the order status page (/order-status) with the Order ID from the confirmation email.",
];

export const PAYMENT_FACTS: readonly string[] = [
  "We accept cards, a PayPal wallet button and financing from as low as 0% APR; tax is calculated at checkout.",
];

export const PRIVACY_FACTS: readonly string[] = [
  "Our services are for people over 18; we never sell personal data and collect it only to process and ship purchases.",
];

export const SEASONING_FACTS: readonly string[] = [
  "Our own seasoning, LOVE RUB, costs $15.99 and ships within 24 hours (/custom-product).",
];

export const FACTS_BY_TOPIC: Record<FactTopic, readonly string[]> = {
  delivery: DELIVERY_FACTS,
  returns: RETURN_FACTS,
  defective: DEFECTIVE_FACTS,
  orders: ORDER_FACTS,
  payment: PAYMENT_FACTS,
  privacy: PRIVACY_FACTS,
  seasoning: SEASONING_FACTS,
};

export const TOPIC_HEADINGS: Record<FactTopic, string> = {
  delivery: "Delivery",
  returns: "Returns",
  defective: "Damaged or defective products",
  orders: "Order status",
  payment: "Payment",
  privacy: "Privacy",
  seasoning: "Our own seasoning",
};

/** Where a shopper reads more on each topic. */
export const TOPIC_LINKS: Record<FactTopic, { label: string; href: string }> = {
  delivery: { label: "Shipping policy", href: "/shipping-policy" },
  returns: { label: "Return policy", href: "/return-policy" },
  defective: { label: "Defective product policy", href: "/defective-product" },
  orders: { label: "Check order status", href: "/order-status" },
  payment: { label: "Contact us about payment", href: "/contact" },
  privacy: { label: "Privacy policy", href: "/privacy-policy" },
  seasoning: { label: "LOVE RUB seasoning", href: "/custom-product" },
};

export function contactFact(store: StoreContact): string {
  return `Call our sales team at ${store.phone} or email ${store.email}; the contact page (/contact) has a message form.`;
}

export function contactLinks(store: StoreContact): Array<{ label: string; href: string }> {
  return [
    { label: `Call ${store.phone}`, href: `tel:+1${store.phone.replace(/\D/g, "").slice(-10)}` },
    { label: `Email ${store.email}`, href: `mailto:${store.email}` },
    { label: "Contact page", href: "/contact" },
  ];
}
