/**
 * When a product leaves the warehouse: one rule (spec section 9's shipping notice) for the
 * product card, the detail page and the chat. The Outdoor Plus builds to order (4 - 6 weeks);
 * everything else, the seasoning included, leaves within 24 hours.
 */
const MADE_TO_ORDER_BRAND = "the_outdoor_plus";

export type LeadTime = { card: string; detail: string };

export function leadTime(brand: string): LeadTime {
  if (brand === MADE_TO_ORDER_BRAND) return { card: "Leaves Warehouse: 4 - 6 Weeks", detail: "Leaves warehouse in 4 - 6 weeks" };
  return { card: "Leaves Warehouse: 24 Hrs", detail: "Leaves warehouse within 24 Hours" };
}
