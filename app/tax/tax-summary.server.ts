import type { TaxService } from "~/services/tax/types";
import { DEMO_TAX_STATES } from "~/config.server";

/** The start-up's `tax` line: who calculates, and with the offline table where it charges (said plainly when these are the demo states). */
export function taxServiceSummary(taxService: TaxService): string {
  if (!taxService.isStandIn) return `${taxService.name}: tax where your Stripe account has registrations`;
  const states = taxService.registeredStates ?? [];
  const where =
    states.length > 0 ? `charging sales tax in ${states.join(", ")} only` : "charging no sales tax (TAX_REGISTERED_STATES=none)";
  const demo = states.length === DEMO_TAX_STATES.length && DEMO_TAX_STATES.every((state) => states.includes(state));
  return `OFFLINE TAX TABLE (estimated state and average local rates), ${where}${demo ? "; DEMO STATES: set TAX_REGISTERED_STATES to your registrations" : ""}`;
}
