/**
 * The sales tax a checkout was priced with, as the checkout and then its order keep it (`tax` jsonb): what
 * was asked, what the provider answered, and per line what was taxed. Plain, import-free types, so the
 * database schema and the pages that show an order's money read the same record the server charged.
 */

export interface RecordedTaxLine {
  /** `{index}:{productKey}`, the reference the provider knows the line by; the index is the order line's. */
  reference: string;
  /** The product tax code the line was taxed under (services/tax/types.ts TAX_CODES). */
  taxCode: string;
  /** What was taxed: the line's price × quantity less its share of the discount. */
  amountCents: number;
  taxCents: number;
}

export interface RecordedJurisdiction {
  name: string;
  level: string;
  ratePercent: string;
  amountCents: number;
}

export interface RecordedTax {
  provider: "stripe" | "offline";
  /** The provider's calculation, committed as the order's tax transaction once paid. */
  calculationId: string;
  /** The two-letter state the order ships to. */
  state: string;
  amountCents: number;
  lines: RecordedTaxLine[];
  shippingCents: number;
  shippingTaxCents: number;
  jurisdictions: RecordedJurisdiction[];
  /** Why no tax was charged ("not_collecting": the store is not registered in that state), or null. */
  taxabilityReason: string | null;
  calculatedAt: string;
  /** After this the calculation can no longer be committed: the checkout is priced again before payment. */
  expiresAt: string;
}
