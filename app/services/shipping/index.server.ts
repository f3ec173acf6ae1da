import type { Config } from "~/config.server";
import { selectShippingRates } from "./select-shipping-rates.server";
import type { ShippingAddress, ShippingRates } from "./types";

/** The rates the configuration chooses: EasyPost when EASYPOST_API_KEY is set, otherwise the offline estimate. */
export function shippingRatesFor(config: Pick<Config, "EASYPOST_API_KEY" | "EASYPOST_API_BASE">): ShippingRates {
  return selectShippingRates({ easypostApiKey: config.EASYPOST_API_KEY, easypostBaseUrl: config.EASYPOST_API_BASE });
}

/** Where parcels leave from: the store's warehouse. */
export function warehouseAddress(config: Pick<Config, "STORE_NAME">): ShippingAddress {
  return {
    name: config.STORE_NAME,
    street1: "2200 Commerce St",
    city: "Dallas",
    state: "TX",
    zip: "75201",
    country: "US",
  };
}
