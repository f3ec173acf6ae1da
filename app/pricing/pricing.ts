import { scaleCents } from "~/utils/format";

/**
 * Money rules of the spec, in integer cents. The server computes every total
 * from catalog prices; nothing here takes a price from a browser.
 */
export const FREE_SHIPPING_ABOVE_CENTS = 4900;
export const CART_SHIPPING_CENTS = 695;
export const SINGLE_ITEM_SHIPPING_CENTS = 699;
export const PROMO_CODE = "LOVERUB10";
export const PROMO_DISCOUNT_RATE = 0.1;
export const INVALID_PROMO_MESSAGE = "Invalid promo code";
export const SINGLE_PRODUCT_MAX_QUANTITY = 10;
/**
 * The most one order may total: $999,999.99, the largest single charge the card providers accept.
 * A cart over it (e.g. three of the dearest grills at quantity 999, about $62 million) is refused at
 * Proceed to Payment with ORDER_TOO_LARGE_MESSAGE and nothing is recorded.
 */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;
export const ORDER_TOO_LARGE_MESSAGE =
  "An order can total at most $999,999.99 online. Please lower a quantity or remove a line, or contact us for a larger order.";

/** The tax line of the cart and of every checkout summary, in the spec's words (one spelling everywhere). */
export const TAX_LINE = { label: "TAX", value: "Calculated at Checkout" } as const;

/** Struck-through "was" prices shown beside the real price, for a product the merchant has not priced (struckPriceCents). */
export const STRUCK_PRICE_FACTOR = { card: 1.12, detail: 1.02, seasoning: 1.15 } as const;

/**
 * The price struck through beside the price on the card, the product page or the seasoning's page: the
 * merchant's "was" price when there is one (a compare-at price, or the regular price during a sale, read
 * from the database: product-columns.server.ts), else the spec's factor of the price.
 */
export function struckPriceCents(
  product: { priceCents: number; wasCents: number | null },
  where: keyof typeof STRUCK_PRICE_FACTOR,
): number {
  return product.wasCents ?? scaleCents(product.priceCents, STRUCK_PRICE_FACTOR[where]);
}

/** The line label: Free Shipping when the unit price is above $49. */
export function qualifiesForFreeShipping(priceCents: number): boolean {
  return priceCents > FREE_SHIPPING_ABOVE_CENTS;
}

/** Cart shipping: $6.95 when the subtotal is $49 or less, else free. */
export function cartShippingCents(subtotalCents: number): number {
  return subtotalCents > FREE_SHIPPING_ABOVE_CENTS ? 0 : CART_SHIPPING_CENTS;
}

export function isValidPromoCode(code: string): boolean {
  return code.trim().toUpperCase() === PROMO_CODE;
}

export function promoDiscountCents(subtotalCents: number, code: string | null | undefined): number {
  return code && isValidPromoCode(code) ? Math.round(subtotalCents * PROMO_DISCOUNT_RATE) : 0;
}

/** Financing "as low as" monthly payment: 0% APR over 36 months, rounded up to the dollar. */
export const FINANCING_MONTHS = 36;
export function financingMonthlyCents(priceCents: number): number {
  return Math.ceil(priceCents / FINANCING_MONTHS / 100) * 100;
}
