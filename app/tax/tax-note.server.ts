import { US_STATE_NAMES } from "~/utils/us-state-names";
import { isUsState } from "~/utils/us-states";
import type { RecordedTax } from "./recorded-tax";

/**
 * The line under a checkout's TAX that says what the amount is: why none is charged (the store is not
 * registered in that state, the state has no sales tax, the items are exempt), or that the offline table
 * estimated it. None before the tax is known.
 */
export function taxNoteOf({ tax }: { tax: RecordedTax | null }): string | null {
  if (!tax) return null;
  const stateName = isUsState(tax.state) ? US_STATE_NAMES[tax.state] : tax.state;
  const none = noTaxReason(tax, stateName);
  if (none) return none;
  return tax.provider === "offline" ? `Estimated from ${stateName}'s state and average local rates (the store's offline tax table).` : null;
}

/** The same for a placed order; one from before the store charged tax says it was charged none. */
export function orderTaxNoteOf(order: { tax: RecordedTax | null }): string | null {
  return order.tax ? taxNoteOf(order) : "No sales tax was charged on this order.";
}

/** Why an order was charged no sales tax, in words for the shopper; null when it was charged some. */
function noTaxReason(tax: Pick<RecordedTax, "amountCents" | "taxabilityReason">, stateName: string): string | null {
  if (tax.amountCents > 0) return null;
  switch (tax.taxabilityReason) {
    case "not_collecting":
      return `We do not collect sales tax in ${stateName}.`;
    case "product_exempt":
    case "product_exempt_holiday":
      return `These items are exempt from sales tax in ${stateName}.`;
    case "not_subject_to_tax":
      return `${capitalised(stateName)} has no sales tax.`;
    default:
      return `No sales tax applies to this order in ${stateName}.`;
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
