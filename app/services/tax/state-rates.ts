import type { UsState } from "~/utils/us-states";

/**
 * The offline tax table: each state's sales tax as a shopper's order meets it, for the stand-in estimate.
 *
 * Sources:
 * - Rates: Tax Foundation, "State and Local Sales Tax Rates, 2025" (rates as of January 1, 2025; published
 *   February 4, 2025), https://taxfoundation.org/data/all/state/sales-tax-rates. `local` is the report's
 *   population-weighted average of the local rates, not the rate of any one place.
 * - Groceries (food for home consumption, Stripe's txcd_40060003): the same report's notes and the states'
 *   own grocery rules as of 2025.
 * - Shipping: TaxJar's state-by-state guide "Sales tax on shipping" (taxjar.com), for separately stated
 *   delivery charges by common carrier on a taxable sale.
 *
 * Rates are percentages in decimal text ("7.25"), the way Stripe gives `percentage_decimal`; the tax is
 * computed from them in integer arithmetic (offline-tax.server.ts), never in floating point.
 */
export interface StateTaxRule {
  /** The state's own base rate. */
  state: string;
  /** The average of the local rates added to it. */
  local: string;
  groceries: GroceryRule;
  /** Whether the shipping charge of a taxable sale is taxed too. */
  shippingTaxed: boolean;
}

/**
 * "exempt": no tax; "general": the full state and local rates; otherwise a reduced state rate with either the
 * local average ("average") or a fixed local rate of its own (Utah's 1.25%, Virginia's 1%).
 */
export type GroceryRule = "exempt" | "general" | { state: string; local: "average" | (string & {}) };

const EXEMPT = "exempt";
const GENERAL = "general";

export const STATE_TAX_RULES: Record<UsState, StateTaxRule> = {
  AL: { state: "4.00", local: "5.43", groceries: { state: "3.00", local: "average" }, shippingTaxed: false },
  // No state tax; the boroughs' and cities' taxes reach groceries as they reach the rest.
  AK: { state: "0", local: "1.82", groceries: GENERAL, shippingTaxed: false },
  AZ: { state: "5.60", local: "2.92", groceries: EXEMPT, shippingTaxed: false },
  AR: { state: "6.50", local: "2.96", groceries: { state: "0.125", local: "average" }, shippingTaxed: true },
  CA: { state: "7.25", local: "1.60", groceries: EXEMPT, shippingTaxed: false },
  CO: { state: "2.90", local: "4.96", groceries: EXEMPT, shippingTaxed: false },
  CT: { state: "6.35", local: "0", groceries: EXEMPT, shippingTaxed: true },
  DE: { state: "0", local: "0", groceries: EXEMPT, shippingTaxed: false },
  DC: { state: "6.00", local: "0", groceries: EXEMPT, shippingTaxed: true },
  FL: { state: "6.00", local: "1.00", groceries: EXEMPT, shippingTaxed: false },
  // Groceries: no state tax, the local taxes still apply (as in KS, LA and OK).
  GA: { state: "4.00", local: "3.38", groceries: { state: "0", local: "average" }, shippingTaxed: true },
  HI: { state: "4.00", local: "0.50", groceries: GENERAL, shippingTaxed: true },
  ID: { state: "6.00", local: "0.03", groceries: GENERAL, shippingTaxed: false },
  // 1% on groceries in all (the state's low rate, shared with the local governments).
  IL: { state: "6.25", local: "2.64", groceries: { state: "1.00", local: "0" }, shippingTaxed: false },
  IN: { state: "7.00", local: "0", groceries: EXEMPT, shippingTaxed: true },
  IA: { state: "6.00", local: "0.94", groceries: EXEMPT, shippingTaxed: false },
  KS: { state: "6.50", local: "2.15", groceries: { state: "0", local: "average" }, shippingTaxed: true },
  KY: { state: "6.00", local: "0", groceries: EXEMPT, shippingTaxed: true },
  LA: { state: "5.00", local: "5.12", groceries: { state: "0", local: "average" }, shippingTaxed: false },
  ME: { state: "5.50", local: "0", groceries: EXEMPT, shippingTaxed: false },
  MD: { state: "6.00", local: "0", groceries: EXEMPT, shippingTaxed: false },
  MA: { state: "6.25", local: "0", groceries: EXEMPT, shippingTaxed: false },
  MI: { state: "6.00", local: "0", groceries: EXEMPT, shippingTaxed: true },
  MN: { state: "6.875", local: "1.29", groceries: EXEMPT, shippingTaxed: true },
  MS: { state: "7.00", local: "0.06", groceries: { state: "5.00", local: "average" }, shippingTaxed: true },
  MO: { state: "4.225", local: "4.19", groceries: { state: "1.225", local: "average" }, shippingTaxed: false },
  MT: { state: "0", local: "0", groceries: EXEMPT, shippingTaxed: false },
  NE: { state: "5.50", local: "1.47", groceries: EXEMPT, shippingTaxed: true },
  NV: { state: "6.85", local: "1.39", groceries: EXEMPT, shippingTaxed: false },
  NH: { state: "0", local: "0", groceries: EXEMPT, shippingTaxed: false },
  NJ: { state: "6.625", local: "0", groceries: EXEMPT, shippingTaxed: true },
  NM: { state: "4.875", local: "2.75", groceries: EXEMPT, shippingTaxed: true },
  NY: { state: "4.00", local: "4.53", groceries: EXEMPT, shippingTaxed: true },
  // Groceries: no state tax, a flat 2% local tax everywhere.
  NC: { state: "4.75", local: "2.25", groceries: { state: "0", local: "2.00" }, shippingTaxed: true },
  ND: { state: "5.00", local: "2.04", groceries: EXEMPT, shippingTaxed: true },
  OH: { state: "5.75", local: "1.49", groceries: EXEMPT, shippingTaxed: true },
  OK: { state: "4.50", local: "4.56", groceries: { state: "0", local: "average" }, shippingTaxed: false },
  OR: { state: "0", local: "0", groceries: EXEMPT, shippingTaxed: false },
  PA: { state: "6.00", local: "0.34", groceries: EXEMPT, shippingTaxed: true },
  RI: { state: "7.00", local: "0", groceries: EXEMPT, shippingTaxed: true },
  SC: { state: "6.00", local: "1.50", groceries: EXEMPT, shippingTaxed: true },
  SD: { state: "4.20", local: "1.91", groceries: GENERAL, shippingTaxed: true },
  TN: { state: "7.00", local: "2.56", groceries: { state: "4.00", local: "average" }, shippingTaxed: true },
  TX: { state: "6.25", local: "1.95", groceries: EXEMPT, shippingTaxed: true },
  // 3% on groceries in all: 1.75% state and 1.25% local.
  UT: { state: "6.10", local: "1.15", groceries: { state: "1.75", local: "1.25" }, shippingTaxed: false },
  VT: { state: "6.00", local: "0.36", groceries: EXEMPT, shippingTaxed: true },
  // 1% on groceries: the local option tax only, since the state's share ended in 2023.
  VA: { state: "5.30", local: "0.47", groceries: { state: "0", local: "1.00" }, shippingTaxed: false },
  WA: { state: "6.50", local: "2.93", groceries: EXEMPT, shippingTaxed: true },
  WV: { state: "6.00", local: "0.59", groceries: EXEMPT, shippingTaxed: true },
  WI: { state: "5.00", local: "0.70", groceries: EXEMPT, shippingTaxed: true },
  WY: { state: "4.00", local: "1.44", groceries: EXEMPT, shippingTaxed: false },
};
