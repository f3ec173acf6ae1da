/**
 * Sales tax, behind one interface: Stripe Tax (TAX_PROVIDER=stripe) or the store's offline table of state
 * rates (the default). The store asks for a calculation before payment, commits it as a transaction once
 * the order is recorded (reference: the Order ID) and reverses it, in full or in part, when money goes back.
 * Amounts are integer cents, tax exclusive (added on top of the prices).
 */

/** Stripe's product tax codes (https://docs.stripe.com/tax/tax-categories); the offline table reads the same codes. */
export const TAX_CODES = {
  /** General - Tangible Goods: every catalogue product. */
  goods: "txcd_99999999",
  /** Food for home consumption (groceries): the LOVE RUB seasoning. */
  food: "txcd_40060003",
  /** Shipping. */
  shipping: "txcd_92010001",
} as const;

export type TaxCode = (typeof TAX_CODES)[keyof typeof TAX_CODES];

/** Where the order ships: the tax follows the destination. */
export interface TaxAddress {
  line1: string;
  city: string;
  /** Two-letter state code (DC included). */
  state: string;
  /** Five-digit ZIP, or ZIP+4. */
  postalCode: string;
  country: "US";
}

export interface TaxLineInput {
  /** Unique within the calculation: `{index}:{productKey}` (a cart may hold one product on several lines). */
  reference: string;
  /** What the line is taxed on, in cents: unit price × quantity, less the line's share of any discount. */
  amountCents: number;
  quantity: number;
  taxCode: TaxCode;
}

export interface TaxCalculationInput {
  lines: TaxLineInput[];
  /** The order's shipping charge in cents (0 when free); taxed where the state taxes shipping. */
  shippingCents: number;
  address: TaxAddress;
}

/** One tax authority's part of a calculation, summed over the lines and shipping. */
export interface TaxJurisdiction {
  /** e.g. "California", "Los Angeles County", or the offline table's "Local (state average)". */
  name: string;
  /** Stripe's levels, and "local" for the offline table's average of a state's local rates. */
  level: "state" | "county" | "city" | "district" | "local" | (string & {});
  /** The rate as a percentage in decimal text, as Stripe gives it: "7.25". */
  ratePercent: string;
  amountCents: number;
}

export interface TaxCalculation {
  /** The provider's id of the calculation (Stripe's `taxcalc_…`), or the stand-in's own. */
  id: string;
  /** The whole tax, in cents. */
  amountCents: number;
  /** The tax of each line, by its reference, in the order asked. */
  lines: { reference: string; taxCents: number }[];
  shippingTaxCents: number;
  jurisdictions: TaxJurisdiction[];
  /**
   * Why no tax is charged, when the amount is 0: Stripe's taxability reason (`not_collecting`: the merchant
   * is not registered in that state; `product_exempt`, `not_subject_to_tax`...), or the stand-in's same words.
   * Null when tax is charged.
   */
  taxabilityReason: string | null;
  /** After this the calculation cannot be committed (Stripe: 90 days); the store calculates again before payment. */
  expiresAt: Date;
}

export type TaxCalculationResult =
  | { status: "calculated"; calculation: TaxCalculation }
  /** The provider cannot place this address (Stripe's `customer_tax_location_invalid`): nothing can be taxed, nothing is paid. */
  | { status: "address-invalid"; message: string };

export interface TaxCommitInput {
  calculationId: string;
  /** The Order ID: unique across the provider's transactions. */
  reference: string;
  idempotencyKey: string;
}

/** A committed tax transaction (or a reversal). */
export interface TaxTransactionRecord {
  /** The provider's id (Stripe's `tax_…`), or the stand-in's own. */
  transactionId: string;
  /** The provider's id of each committed line, by the line's reference: a partial reversal names them. */
  lineItemIds: Record<string, string>;
}

export interface TaxReversalLine {
  /** The committed line's id (TaxTransactionRecord.lineItemIds). */
  originalLineItemId: string;
  /** Unique within the reversal, e.g. `{line reference}-return`. */
  reference: string;
  /** What is given back of the line's taxable amount, in positive cents (Stripe takes them negative; the driver turns them). */
  amountCents: number;
  /** What is given back of the line's tax, in positive cents. */
  taxCents: number;
  quantity: number;
}

export interface TaxReversalInput {
  originalTransactionId: string;
  /** Unique across the provider's transactions, e.g. `{Order ID}-refund-{n}`. */
  reference: string;
  idempotencyKey: string;
  /** "full": the whole transaction; "partial": exactly `lines` and `shipping`. */
  mode: "full" | "partial";
  lines?: TaxReversalLine[];
  /** Shipping given back (positive cents), for a partial reversal that includes it. */
  shipping?: { amountCents: number; taxCents: number };
}

export interface TaxService {
  readonly id: "stripe" | "offline";
  /** For people: "Stripe Tax", "the store's offline tax table". */
  readonly name: string;
  /** True for the offline table: an estimate from average rates, not a tax service. */
  readonly isStandIn: boolean;
  /** The states the stand-in collects in (TAX_REGISTERED_STATES); null where the provider knows them (Stripe's registrations). */
  readonly registeredStates: readonly string[] | null;
  /** Calculates the tax of an order shipped to an address; throws TaxError when the provider cannot be asked. */
  calculate(input: TaxCalculationInput): Promise<TaxCalculationResult>;
  /** Records a calculation as a transaction once paid (idempotent under the key); throws TaxError. */
  commit(input: TaxCommitInput): Promise<TaxTransactionRecord>;
  /** Reverses a committed transaction in full or in part (idempotent under the key); throws TaxError. */
  reverse(input: TaxReversalInput): Promise<TaxTransactionRecord>;
}

/** The tax provider could not be reached, timed out, or answered something unusable. Its message is safe to log, not to show. */
export class TaxError extends Error {
  constructor(
    message: string,
    readonly provider: TaxService["id"],
    readonly status?: number,
  ) {
    super(message);
    this.name = "TaxError";
  }
}
