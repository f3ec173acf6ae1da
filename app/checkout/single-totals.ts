import { isValidPromoCode, promoDiscountCents, SINGLE_ITEM_SHIPPING_CENTS, SINGLE_PRODUCT_MAX_QUANTITY } from "~/pricing/pricing";

/**
 * Totals of the single-product checkouts (BUY NOW and the seasoning):
 * quantity 1 to 10, LOVERUB10 for 10% off, a flat $6.99 shipping for one
 * item and the carrier's rate for more (or 0 when the rate could not be had).
 */
export interface SingleCheckoutTotals {
  quantity: number;
  unitPriceCents: number;
  subtotalCents: number;
  promoCode: string;
  promoApplied: boolean;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
}

export function clampSingleQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(SINGLE_PRODUCT_MAX_QUANTITY, Math.max(1, Math.floor(quantity)));
}

/** Whether shipping needs a carrier quote (more than one item) or is the flat rate. */
export function needsCarrierRate(quantity: number): boolean {
  return clampSingleQuantity(quantity) > 1;
}

export function singleCheckoutTotals(input: {
  unitPriceCents: number;
  quantity: number;
  promoCode: string;
  /** The carrier quote for quantities above one; null when none could be had. */
  carrierShippingCents: number | null;
}): SingleCheckoutTotals {
  const quantity = clampSingleQuantity(input.quantity);
  const subtotalCents = input.unitPriceCents * quantity;
  const promoCode = input.promoCode.trim().toUpperCase();
  const promoApplied = promoCode !== "" && isValidPromoCode(promoCode);
  const discountCents = promoApplied ? promoDiscountCents(subtotalCents, promoCode) : 0;
  const shippingCents = quantity === 1 ? SINGLE_ITEM_SHIPPING_CENTS : (input.carrierShippingCents ?? 0);
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
