import type { Config } from "~/config.server";
import { createOfflineTaxService } from "./offline-tax.server";
import { createStripeTaxService } from "./stripe-tax.server";
import type { TaxService } from "./types";

export type TaxConfig = Pick<
  Config,
  "TAX_PROVIDER" | "TAX_REGISTERED_STATES" | "STRIPE_SECRET_KEY" | "STRIPE_TAX_API_BASE" | "STRIPE_API_BASE"
>;

/**
 * The tax service the configuration chooses: Stripe Tax with TAX_PROVIDER=stripe (at STRIPE_TAX_API_BASE, else
 * STRIPE_API_BASE, else Stripe's own host), otherwise the offline table for TAX_REGISTERED_STATES.
 */
export function taxServiceFor(config: TaxConfig): TaxService {
  if (config.TAX_PROVIDER === "stripe") {
    // parseConfig refuses TAX_PROVIDER=stripe without a key; a hand-made configuration is refused here.
    if (!config.STRIPE_SECRET_KEY) throw new Error("TAX_PROVIDER is stripe, which needs STRIPE_SECRET_KEY.");
    return createStripeTaxService({ secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_TAX_API_BASE ?? config.STRIPE_API_BASE });
  }
  return createOfflineTaxService({ registeredStates: config.TAX_REGISTERED_STATES });
}
