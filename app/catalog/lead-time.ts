/**
 * When a product leaves the warehouse: one rule (spec section 9's shipping notice) for the
 * product card, the detail page and the chat. The Outdoor Plus builds to order (4 - 6 weeks);
 * everything else, the seasoning included, leaves within 24 hours.
 */
export const MADE_TO_ORDER_BRAND = "the_outdoor_plus";
/** What the brand's products take to build, as a sentence says it (the stock table's default lead time for them). */
export const MADE_TO_ORDER_LEAD_TIME = "4 - 6 weeks";

export type LeadTime = { card: string; detail: string };

export function leadTime(brand: string): LeadTime {
  if (brand === MADE_TO_ORDER_BRAND) return { card: "Leaves Warehouse: 4 - 6 Weeks", detail: "Leaves warehouse in 4 - 6 weeks" };
  return { card: "Leaves Warehouse: 24 Hrs", detail: "Leaves warehouse within 24 Hours" };
}
