export interface ShippingAddress {
  name: string;
  street1: string;
  street2?: string;
  city: string;
  /** Two-letter state code. */
  state: string;
  /** Five-digit US ZIP (ZIP+4 accepted). */
  zip: string;
  country: string;
  phone?: string;
}

/** Inches and ounces, as EasyPost and USPS measure them. */
export interface Parcel {
  length: number;
  width: number;
  height: number;
  weight: number;
}

export interface QuoteRequest {
  from: ShippingAddress;
  to: ShippingAddress;
  parcel: Parcel;
}

export interface ShippingQuote {
  amountCents: number;
  carrier: string;
  service: string;
}

export interface ShippingRates {
  readonly name: string;
  /** True for the offline estimate: no carrier was asked. */
  readonly isStandIn: boolean;
  quote(input: QuoteRequest): Promise<ShippingQuote>;
}

export class ShippingRateError extends Error {
  override readonly name = "ShippingRateError";
  readonly provider: string;
  /** HTTP status of the provider's answer, when there was one. */
  readonly statusCode: number | undefined;
  /** The provider's own error code (EasyPost's `error.code`), when it gave one. */
  readonly providerCode: string | undefined;

  constructor(message: string, details: { provider: string; statusCode?: number; providerCode?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.statusCode = details.statusCode;
    this.providerCode = details.providerCode;
  }
}
