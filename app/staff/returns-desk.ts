import { centsOfTypedDollars } from "~/utils/money";
/**
 * The returns desk's money rule (issue 41): what a received return gives back. Pure, so the page and
 * the server show and check the same figure.
 *
 * The Return Policy deducts "the cost of shipping, both to you and back to us" from the refund:
 * - **Shipping to the customer** is what the order charged for shipping (`shipping_cents`). It is kept
 *   by never refunding it: the refund starts from the returned lines' prices, not from what was paid.
 *   Taking a prorated share of it off the lines as well would charge that shipping twice (a $40 item
 *   with $6.95 shipping, returned: $46.95 paid, $40 − $6.95 back). An order shipped free charged nothing
 *   for it, so nothing is deducted.
 * - **Shipping back** is the return label's cost when the store bought one (EasyPost); without a label
 *   the customer ships the parcel at their own cost, as the printable instructions say, so nothing is
 *   deducted (`NO_LABEL_RETURN_SHIPPING_CENTS`).
 * - The order's discount (LOVERUB10) is shared out over its lines by value: the returned lines give back
 *   what was paid for them, never the discount itself.
 * - **Sales tax** paid on the returned lines goes back with them, in the proportion of each line's
 *   quantity returned (the order recorded each line's tax); shipping deductions never reduce it. The same
 *   share is reversed at the tax provider (tax/tax-transactions.server.ts, `returnedTaxShare`).
 * The result is never below zero, and never above what the payment still holds (its amount less earlier
 * partial refunds): staff may lower it, never raise it.
 */

/** A return shipped without our label (printable instructions): the customer pays their own carrier. */
export const NO_LABEL_RETURN_SHIPPING_CENTS = 0;

export interface RefundLine {
  /** The order line's price and quantity, as the order recorded them. */
  unitPriceCents: number;
  orderedQuantity: number;
  /** How many of the line come back. */
  quantity: number;
  /** The whole line's sales tax, as the order recorded it (0 for an order without tax). */
  taxCents: number;
}

export interface ReturnRefund {
  /** The returned lines' prices × quantities. */
  goodsCents: number;
  /** Their share of the order's discount. */
  discountShareCents: number;
  /** The return label's cost (0 without a label). */
  returnShippingCents: number;
  /** The returned lines' share of the tax the order paid. */
  taxCents: number;
  /** What goes back: (goods − discount share − return shipping, at least 0) + tax, at most what the payment still holds. */
  refundCents: number;
  /** True when what the payment still holds lowered the refund. */
  cappedByPayment: boolean;
}

export function returnRefund(input: {
  lines: RefundLine[];
  subtotalCents: number;
  discountCents: number;
  returnShippingCents: number;
  /** What the payment still holds: its amount less earlier partial refunds. */
  refundableCents: number;
}): ReturnRefund {
  const goodsCents = input.lines.reduce(
    (sum, line) => sum + line.unitPriceCents * Math.max(0, Math.min(line.quantity, line.orderedQuantity)),
    0,
  );
  const discountShareCents =
    input.subtotalCents > 0 && input.discountCents > 0
      ? Math.min(input.discountCents, Math.round((input.discountCents * goodsCents) / input.subtotalCents))
      : 0;
  const taxCents = input.lines.reduce((sum, line) => sum + returnedLineTax(line), 0);
  const byPolicy = Math.max(0, goodsCents - discountShareCents - Math.max(0, input.returnShippingCents)) + taxCents;
  const refundable = Math.max(0, input.refundableCents);
  return {
    goodsCents,
    discountShareCents,
    returnShippingCents: Math.max(0, input.returnShippingCents),
    taxCents,
    refundCents: Math.min(byPolicy, refundable),
    cappedByPayment: refundable < byPolicy,
  };
}

/** A returned line's share of its tax: the line's tax in the proportion of its quantity returned. */
function returnedLineTax(line: RefundLine): number {
  const quantity = Math.max(0, Math.min(line.quantity, line.orderedQuantity));
  return line.orderedQuantity > 0 ? Math.round((line.taxCents * quantity) / line.orderedQuantity) : 0;
}

/** The most a refund typed at the desk may be: $9,999,999.99 (no order comes near it). */
const MAX_TYPED_REFUND_CENTS = 999_999_999;

/** A refund as staff type it ("12.34", "$1,234.5", "12") in whole cents; null for anything else. */
export function parseDollars(text: string): number | null {
  const cents = centsOfTypedDollars(text);
  return cents !== null && cents <= MAX_TYPED_REFUND_CENTS ? cents : null;
}

export const DESK_STATUSES = ["requested", "approved", "received", "declined", "refunded"] as const;
export type DeskStatus = (typeof DESK_STATUSES)[number];

/** /returns with the status filter (and, past the first, the page of that status) kept in the URL. */
export function returnsDeskHref(status?: DeskStatus | null, page = 1): string {
  if (!status) return "/returns";
  return page > 1 ? `/returns?status=${status}&page=${page}` : `/returns?status=${status}`;
}

/** The page asked for: a whole number from 1, anything else the first. */
export function parseDeskPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}
