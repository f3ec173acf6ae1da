import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { emailSenderFor } from "./email/index.server";
import { shippingRatesFor } from "./shipping/index.server";
import { textGeneratorFor } from "./text/index.server";
import { taxServiceFor } from "./tax/index.server";

export type StoreServices = Pick<StoreRuntime, "emailSender" | "shippingRates" | "textGenerator" | "taxService">;

/**
 * The outside services the configuration chooses, each a real provider or its offline stand-in: built once
 * where a runtime is made (runtime.server.ts, a test's runtime) and handed to the code that uses them.
 */
export function storeServices(config: Config, db: Database): StoreServices {
  return {
    emailSender: emailSenderFor(config, db),
    shippingRates: shippingRatesFor(config),
    textGenerator: textGeneratorFor(config),
    taxService: taxServiceFor(config),
  };
}
