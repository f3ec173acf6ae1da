import { createEasyPostRates } from "./easypost-rates.server";
import { createOfflineRates } from "./offline-rates.server";
import type { ShippingRates } from "./types";

export interface ShippingRatesConfig {
  easypostApiKey?: string;
  easypostBaseUrl?: string;
}

/** EasyPost when its API key is set, otherwise the offline estimate. */
export function selectShippingRates(config: ShippingRatesConfig): ShippingRates {
  const apiKey = config.easypostApiKey?.trim();
  if (!apiKey) return createOfflineRates();
  return createEasyPostRates({ apiKey, ...(config.easypostBaseUrl ? { baseUrl: config.easypostBaseUrl } : {}) });
}
