import type { OrderCustomer, OrderItem } from "~/db/schema";
import { logError } from "~/observability/logger.server";
import { TAX_CODES, TaxError, type TaxCode, type TaxService } from "~/services/tax/types";
import { TAX_ADDRESS_MESSAGE, TAX_UNAVAILABLE_MESSAGE } from "./messages";
import type { RecordedTax } from "./recorded-tax";

/** Items of the store's own brand (the LOVE RUB seasoning) are food; everything else the catalogue sells is tangible goods. */
const FOOD_BRAND = "custom_product";

/** A calculation this close to its end is done again before payment, so the order can still commit it. */
const FRESH_FOR_MS = 24 * 60 * 60_000;

export type CheckoutTax =
  { ok: true; tax: RecordedTax; items: OrderItem[] } | { ok: false; reason: "address" | "unavailable"; message: string };

/** What a checkout is priced from: who it ships to, its lines, shipping and discount (taken off before tax). */
export interface TaxableCheckout {
  customer: Pick<OrderCustomer, "address" | "city" | "state" | "postalCode">;
  items: OrderItem[];
  shippingCents: number;
  discountCents: number;
}

/**
 * The sales tax of a checkout, from its shipping address, before any payment: each line is taxed on its
 * price less its share of the discount, under its product's tax code, and shipping as the state rules.
 * The lines come back with their tax. A provider that cannot place the address, or cannot be asked, gives
 * the shopper a message and no checkout.
 */
export async function calculateCheckoutTax(taxService: TaxService, checkout: TaxableCheckout, now = new Date()): Promise<CheckoutTax> {
  const shares = discountShares(checkout.items, checkout.discountCents);
  const lines = checkout.items.map((item, index) => ({
    reference: lineReference(index, item.productKey),
    amountCents: item.unitPriceCents * item.quantity - shares[index]!,
    quantity: item.quantity,
    taxCode: taxCodeOf(item),
  }));
  const { customer } = checkout;
  try {
    const result = await taxService.calculate({
      lines,
      shippingCents: checkout.shippingCents,
      address: { line1: customer.address, city: customer.city, state: customer.state, postalCode: customer.postalCode, country: "US" },
    });
    if (result.status === "address-invalid") return { ok: false, reason: "address", message: TAX_ADDRESS_MESSAGE };
    const { calculation } = result;
    const taxOf = new Map(calculation.lines.map((line) => [line.reference, line.taxCents]));
    const tax: RecordedTax = {
      provider: taxService.id,
      calculationId: calculation.id,
      state: customer.state,
      amountCents: calculation.amountCents,
      lines: lines.map((line) => ({
        reference: line.reference,
        taxCode: line.taxCode,
        amountCents: line.amountCents,
        taxCents: taxOf.get(line.reference) ?? 0,
      })),
      shippingCents: checkout.shippingCents,
      shippingTaxCents: calculation.shippingTaxCents,
      jurisdictions: calculation.jurisdictions,
      taxabilityReason: calculation.taxabilityReason,
      calculatedAt: now.toISOString(),
      expiresAt: calculation.expiresAt.toISOString(),
    };
    return { ok: true, tax, items: checkout.items.map((item, index) => ({ ...item, taxCents: tax.lines[index]!.taxCents })) };
  } catch (error) {
    if (!(error instanceof TaxError)) throw error;
    logError(`Sales tax could not be calculated by ${taxService.name}`, error);
    return { ok: false, reason: "unavailable", message: TAX_UNAVAILABLE_MESSAGE };
  }
}

/**
 * Whether a checkout's tax must be worked out again before its payment starts: it has none (priced before
 * tax existed), its calculation is about to expire, or it no longer describes this checkout's lines and state.
 */
export function taxIsStale(
  checkout: TaxableCheckout & { tax: RecordedTax | null; taxCents: number; subtotalCents: number; totalCents: number },
  now = new Date(),
): boolean {
  const { tax } = checkout;
  if (!tax) return true;
  if (checkout.subtotalCents - checkout.discountCents + checkout.shippingCents + checkout.taxCents !== checkout.totalCents) return true;
  if (Date.parse(tax.expiresAt) - now.getTime() < FRESH_FOR_MS) return true;
  if (tax.state !== checkout.customer.state || tax.amountCents !== checkout.taxCents || tax.shippingCents !== checkout.shippingCents)
    return true;
  const shares = discountShares(checkout.items, checkout.discountCents);
  return (
    tax.lines.length !== checkout.items.length ||
    checkout.items.some((item, index) => {
      const line = tax.lines[index]!;
      return (
        line.reference !== lineReference(index, item.productKey) ||
        line.amountCents !== item.unitPriceCents * item.quantity - shares[index]!
      );
    })
  );
}

export function lineReference(index: number, productKey: string): string {
  return `${index}:${productKey}`.slice(0, 500);
}

function taxCodeOf(item: OrderItem): TaxCode {
  return item.brand === FOOD_BRAND ? TAX_CODES.food : TAX_CODES.goods;
}

/**
 * The discount shared over the lines by value, in whole cents that add up to it exactly (largest
 * remainder): a discount is taken off before tax, so each line is taxed on what is paid for it.
 */
export function discountShares(items: readonly Pick<OrderItem, "unitPriceCents" | "quantity">[], discountCents: number): number[] {
  const values = items.map((item) => item.unitPriceCents * item.quantity);
  const subtotal = values.reduce((sum, value) => sum + value, 0);
  if (discountCents <= 0 || subtotal <= 0) return values.map(() => 0);
  const exact = values.map((value) => (discountCents * value) / subtotal);
  const shares = exact.map(Math.floor);
  let left = Math.min(discountCents, subtotal) - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - shares[index]! })).sort((a, b) => b.remainder - a.remainder);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    shares[index] = shares[index]! + 1;
    left -= 1;
  }
  return shares;
}
