import { getConfig } from "~/config.server";
import { selectShippingRates } from "./select-shipping-rates.server";
import type { ShippingAddress, ShippingRates } from "./types";

let rates: ShippingRates | undefined;

/** EasyPost when EASYPOST_API_KEY is set, otherwise the offline estimate. */
export function getShippingRates(): ShippingRates {
  const config = getConfig();
  rates ??= selectShippingRates({ easypostApiKey: config.EASYPOST_API_KEY, easypostBaseUrl: config.EASYPOST_API_BASE });
  return rates;
}

/** Where parcels leave from: the store's warehouse. */
export function warehouseAddress(): ShippingAddress {
  return {
    name: getConfig().STORE_NAME,
    street1: "2200 Commerce St",
    city: "Dallas",
    state: "TX",
    zip: "75201",
    country: "US",
  };
}
