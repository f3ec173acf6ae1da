import { z } from "zod";
import { ShippingRateError, type QuoteRequest } from "./types";

const US_ZIP = /^\d{5}(?:-\d{4})?$/;

const address = z.object({
  street1: z.string().trim().min(1),
  city: z.string().trim().min(1),
  state: z.string().trim().min(1),
  zip: z.string().trim().regex(US_ZIP, "must be a 5-digit US ZIP"),
});

const positive = z.number().positive().finite();

const quoteRequest = z.object({
  from: address,
  to: address,
  parcel: z.object({ length: positive, width: positive, height: positive, weight: positive }),
});

/** Both drivers refuse the same requests: a bad ZIP or parcel never reaches a carrier, nor gets an estimate. */
export function assertQuotable(request: QuoteRequest, provider: string): void {
  const result = quoteRequest.safeParse(request);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ShippingRateError(`Cannot quote shipping: ${issue?.path.join(".")} ${issue?.message}.`, { provider });
  }
}

/** The first digit of a ZIP: the USPS national area (0 = New England ... 9 = West Coast). */
export function zipArea(zip: string): number {
  return Number(zip.trim().charAt(0));
}
