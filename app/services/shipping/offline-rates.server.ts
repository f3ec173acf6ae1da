import { assertQuotable, zipArea } from "./quote-request";
import type { Parcel, ShippingRates } from "./types";

export const OFFLINE_RATES_NAME = "offline estimate (stand-in, no carrier was asked)";

// Shaped like USPS Priority Mail retail prices; an estimate, never a carrier's quote.
const BASE_CENTS = 945;
const PER_EXTRA_POUND_CENTS = 160;
const PER_ZONE_STEP_CENTS = 85;
const MAX_ZONE = 8;

/** The offline stand-in: a deterministic Priority-like rate from weight and a rough zone. */
export function createOfflineRates(): ShippingRates {
  return {
    name: OFFLINE_RATES_NAME,
    isStandIn: true,
    async quote(request) {
      assertQuotable(request, "offline");
      const zone = roughZone(request.from.zip, request.to.zip);
      return { amountCents: estimateCents(request.parcel, zone), carrier: "USPS", service: "Priority" };
    },
  };
}

/** Zone 1 inside the same ZIP area, one more per area apart (the first ZIP digit runs east to west). */
function roughZone(fromZip: string, toZip: string): number {
  return Math.min(MAX_ZONE, 1 + Math.abs(zipArea(fromZip) - zipArea(toZip)));
}

function estimateCents(parcel: Parcel, zone: number): number {
  const pounds = Math.max(1, Math.ceil(parcel.weight / 16));
  return BASE_CENTS + (pounds - 1) * PER_EXTRA_POUND_CENTS + (zone - 1) * PER_ZONE_STEP_CENTS;
}
