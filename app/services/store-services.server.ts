import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { emailSenderFor } from "./email/index.server";
import { paymentProvidersFor } from "./payments/index.server";
import { selectShipmentTracker } from "./shipping/easypost-tracker.server";
import { shippingRatesFor } from "./shipping/index.server";
import { textGeneratorFor } from "./text/index.server";
import { taxServiceFor } from "./tax/index.server";

export type StoreServices = Pick<
  StoreRuntime,
  "emailSender" | "payments" | "shippingRates" | "shipmentTracker" | "textGenerator" | "taxService"
>;

/**
 * The outside services the configuration chooses, each a real provider or its offline stand-in: built once
 * where a runtime is made (runtime.server.ts, a test's runtime) and handed to the code that uses them.
 */
export function storeServices(config: Config, db: Database): StoreServices {
  return {
    emailSender: emailSenderFor(config, db),
    payments: paymentProvidersFor(config, db),
    shippingRates: shippingRatesFor(config),
    shipmentTracker: selectShipmentTracker(config),
    textGenerator: textGeneratorFor(config),
    taxService: taxServiceFor(config),
  };
}
