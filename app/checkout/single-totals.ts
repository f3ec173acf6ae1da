import {
  FREE_SHIPPING_ABOVE_CENTS,
  isValidPromoCode,
  promoDiscountCents,
  SINGLE_ITEM_SHIPPING_CENTS,
  SINGLE_PRODUCT_MAX_QUANTITY,
} from "~/pricing/pricing";

/**
 * Totals of the single-product checkouts (BUY NOW and the seasoning): quantity 1 to 10, LOVERUB10
 * for 10% off, and shipping by one rule (see singleShippingRule). Pure, so the page can recompute
 * them in the browser the moment the quantity changes; the server recomputes them on every post.
 */
export interface SingleCheckoutTotals {
  quantity: number;
  unitPriceCents: number;
  subtotalCents: number;
  promoCode: string;
  promoApplied: boolean;
  discountCents: number;
  shippingCents: number;
  /** The sales tax, once the server knows the address (the browser's own recalculation has none: "Calculated at Checkout"). */
  taxCents?: number;
  taxNote?: string | null;
  totalCents: number;
}

/**
 * How a single-product checkout ships (a deliberate difference from spec section 9, see README):
 * - the seasoning: a flat $6.99 for one jar, the carrier's rate for the jars' parcel above one;
 * - any other product: free when the subtotal is above $49 (the promise on the card, the cart and
 *   the header), else the carrier's rate for a parcel of the product's own size and weight.
 */
export type SingleShippingRule = { kind: "flat"; cents: number } | { kind: "free" } | { kind: "carrier" };

export function singleShippingRule(input: { seasoning: boolean; unitPriceCents: number; quantity: number }): SingleShippingRule {
  const quantity = clampSingleQuantity(input.quantity);
  if (input.seasoning) return quantity === 1 ? { kind: "flat", cents: SINGLE_ITEM_SHIPPING_CENTS } : { kind: "carrier" };
  return input.unitPriceCents * quantity > FREE_SHIPPING_ABOVE_CENTS ? { kind: "free" } : { kind: "carrier" };
}

export function clampSingleQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(SINGLE_PRODUCT_MAX_QUANTITY, Math.max(1, Math.floor(quantity)));
}

export function singleCheckoutTotals(input: {
  unitPriceCents: number;
  quantity: number;
  promoCode: string;
  seasoning: boolean;
  /** The carrier quote when the rule asks for one; null when none could be had (shipping is then 0). */
  carrierShippingCents: number | null;
}): SingleCheckoutTotals {
  const quantity = clampSingleQuantity(input.quantity);
  const subtotalCents = input.unitPriceCents * quantity;
  const promoCode = input.promoCode.trim().toUpperCase();
  const promoApplied = promoCode !== "" && isValidPromoCode(promoCode);
  const discountCents = promoApplied ? promoDiscountCents(subtotalCents, promoCode) : 0;
  const rule = singleShippingRule({ seasoning: input.seasoning, unitPriceCents: input.unitPriceCents, quantity });
  const shippingCents = rule.kind === "flat" ? rule.cents : rule.kind === "free" ? 0 : (input.carrierShippingCents ?? 0);
  return {
    quantity,
    unitPriceCents: input.unitPriceCents,
    subtotalCents,
    promoCode,
    promoApplied,
    discountCents,
    shippingCents,
    totalCents: subtotalCents - discountCents + shippingCents,
  };
}
