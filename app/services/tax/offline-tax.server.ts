import { randomBytes } from "node:crypto";
import { US_STATE_NAMES } from "~/utils/us-state-names";
import { isUsState, type UsState } from "~/utils/us-states";
import { STATE_TAX_RULES, type StateTaxRule } from "./state-rates";
import {
  TAX_CODES,
  TaxError,
  type TaxAddress,
  type TaxCalculationInput,
  type TaxCalculationResult,
  type TaxJurisdiction,
  type TaxLineInput,
  type TaxReversalInput,
  type TaxService,
} from "./types";
import { stateOfZip } from "./zip-states";

export const OFFLINE_TAX_NAME = "the store's offline tax table";

const PROVIDER = "offline";
const CALCULATION_PREFIX = "taxcalc_offline_";
const TRANSACTION_PREFIX = "tax_offline_";
const REVERSAL_PREFIX = "tax_offline_rev_";
const LOCAL_NAME = "Local (state average)";
const VALID_FOR_MS = 90 * 24 * 60 * 60 * 1000;
/** Rates are counted in thousandths of a percent (6.875% = 6875), so a tax is amount × rate / 100,000 in integers. */
const RATE_DENOMINATOR = 100_000;
const RATE_DECIMALS = 3;
const ZIP = /^\d{5}(?:-?\d{4})?$/;

export interface OfflineTaxOptions {
  /** Where the store collects (TAX_REGISTERED_STATES); elsewhere the tax is 0, "not_collecting". */
  registeredStates: readonly UsState[];
  /** The clock, for tests. */
  now?: () => Date;
}

/** One tax on a line: a jurisdiction and its rate. */
interface RatePart {
  name: string;
  level: "state" | "local";
  ratePercent: string;
}

/**
 * The stand-in for a tax service: the state's base rate plus its average local rate (state-rates.ts), with
 * its rules for groceries and shipping, in the states the store says it is registered in. An estimate, not a
 * tax service: no place's own local rate, no exemption certificates, nothing reported anywhere. Deterministic
 * and without I/O; it keeps nothing, so commit and reverse only make up ids.
 */
export function createOfflineTaxService({ registeredStates, now = () => new Date() }: OfflineTaxOptions): TaxService {
  const registered = new Set<string>(registeredStates);

  function calculate(input: TaxCalculationInput): TaxCalculationResult {
    assertCalculable(input);
    const placed = placeAddress(input.address);
    if (placed.status === "address-invalid") return placed;
    const state = placed.state;
    const rule = STATE_TAX_RULES[state];
    if (!registered.has(state)) return untaxed(input, "not_collecting");
    if (isZero(rule.state) && isZero(rule.local)) return untaxed(input, "not_subject_to_tax");

    const jurisdictions = new JurisdictionTotals();
    const generalParts = generalRate(state, rule);
    const anyAtGeneralRate = input.lines.some((line) => line.taxCode === TAX_CODES.goods || (isFood(line) && rule.groceries === "general"));
    const shippingParts = rule.shippingTaxed && anyAtGeneralRate ? generalParts : [];
    const partsOf = (line: TaxLineInput) =>
      line.taxCode === TAX_CODES.shipping ? shippingParts : isFood(line) ? groceryRate(state, rule) : generalParts;

    const lines = input.lines.map((line) => ({ reference: line.reference, taxCents: jurisdictions.tax(line.amountCents, partsOf(line)) }));
    const shippingTaxCents = jurisdictions.tax(input.shippingCents, shippingParts);
    const amountCents = lines.reduce((sum, line) => sum + line.taxCents, shippingTaxCents);
    const taxedAnything = jurisdictions.list().length > 0;
    return calculated({
      amountCents,
      lines,
      shippingTaxCents,
      jurisdictions: jurisdictions.list(),
      taxabilityReason: amountCents > 0 ? null : taxedAnything ? "standard_rated" : "product_exempt",
    });
  }

  function calculated(values: Omit<Calculation, "id" | "expiresAt">): TaxCalculationResult {
    const id = `${CALCULATION_PREFIX}${randomBytes(12).toString("hex")}`;
    return { status: "calculated", calculation: { id, ...values, expiresAt: new Date(now().getTime() + VALID_FOR_MS) } };
  }

  function untaxed(input: TaxCalculationInput, taxabilityReason: string): TaxCalculationResult {
    const lines = input.lines.map((line) => ({ reference: line.reference, taxCents: 0 }));
    return calculated({ amountCents: 0, lines, shippingTaxCents: 0, jurisdictions: [], taxabilityReason });
  }

  return {
    id: PROVIDER,
    name: OFFLINE_TAX_NAME,
    isStandIn: true,
    registeredStates: [...registeredStates],
    calculate: async (input) => calculate(input),
    /**
     * The transaction id is made from the reference. The stand-in keeps no calculation, so it knows no lines:
     * lineItemIds is empty, and reverse() takes any originalLineItemId.
     */
    async commit({ calculationId, reference }) {
      if (!calculationId.startsWith(CALCULATION_PREFIX)) {
        throw new TaxError(`${calculationId} is not a calculation of the offline tax table.`, PROVIDER);
      }
      assertReference(reference);
      return { transactionId: `${TRANSACTION_PREFIX}${reference}`, lineItemIds: {} };
    },
    async reverse(input) {
      assertReversible(input);
      return { transactionId: `${REVERSAL_PREFIX}${input.reference}`, lineItemIds: {} };
    },
  };
}

type Calculation = Extract<TaxCalculationResult, { status: "calculated" }>["calculation"];

function generalRate(state: UsState, rule: StateTaxRule): RatePart[] {
  return ratePartsOf(state, rule.state, rule.local);
}

function groceryRate(state: UsState, rule: StateTaxRule): RatePart[] {
  const groceries = rule.groceries;
  if (groceries === "exempt") return [];
  if (groceries === "general") return generalRate(state, rule);
  return ratePartsOf(state, groceries.state, groceries.local === "average" ? rule.local : groceries.local);
}

function ratePartsOf(state: UsState, statePercent: string, localPercent: string): RatePart[] {
  const parts: RatePart[] = [
    { name: jurisdictionName(state), level: "state", ratePercent: statePercent },
    { name: LOCAL_NAME, level: "local", ratePercent: localPercent },
  ];
  return parts.filter((part) => !isZero(part.ratePercent));
}

/** "California"; "District of Columbia" (a jurisdiction's name, where the sentence form says "the District of Columbia"). */
function jurisdictionName(state: UsState): string {
  return US_STATE_NAMES[state].replace(/^the /, "");
}

function isFood(line: TaxLineInput): boolean {
  return line.taxCode === TAX_CODES.food;
}

/** Sums each jurisdiction's tax (by level, name and rate, as Stripe's breakdowns do) while taxing the lines. */
class JurisdictionTotals {
  private readonly totals = new Map<string, TaxJurisdiction>();

  /** The tax of one amount: each part rounded half up on its own, then added. */
  tax(amountCents: number, parts: readonly RatePart[]): number {
    if (amountCents === 0) return 0;
    let taxCents = 0;
    for (const part of parts) {
      const cents = percentOf(amountCents, part.ratePercent);
      const key = `${part.level}|${part.name}|${part.ratePercent}`;
      const total = this.totals.get(key) ?? { name: part.name, level: part.level, ratePercent: part.ratePercent, amountCents: 0 };
      total.amountCents += cents;
      this.totals.set(key, total);
      taxCents += cents;
    }
    return taxCents;
  }

  list(): TaxJurisdiction[] {
    return [...this.totals.values()];
  }
}

/** amountCents × ratePercent / 100, rounded half up, exactly: integers all the way (amounts up to about $900 million). */
export function percentOf(amountCents: number, ratePercent: string): number {
  const scaled = amountCents * rateUnits(ratePercent) + RATE_DENOMINATOR / 2;
  return (scaled - (scaled % RATE_DENOMINATOR)) / RATE_DENOMINATOR;
}

/** "6.875" → 6875 thousandths of a percent. */
function rateUnits(ratePercent: string): number {
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(ratePercent);
  if (!match) throw new TaxError(`The offline tax table has an unreadable rate: ${ratePercent}`, PROVIDER);
  return Number(match[1]) * 10 ** RATE_DECIMALS + Number((match[2] ?? "").padEnd(RATE_DECIMALS, "0"));
}

function isZero(ratePercent: string): boolean {
  return rateUnits(ratePercent) === 0;
}

/** The state the address is taxed in, or why it cannot be placed (in words for the shopper). */
function placeAddress(address: TaxAddress): { status: "placed"; state: UsState } | { status: "address-invalid"; message: string } {
  const state = address.state.trim().toUpperCase();
  if (address.country !== "US" || !isUsState(state)) {
    return { status: "address-invalid", message: "Choose the state from the list: we ship to the 50 states and the District of Columbia." };
  }
  const zip = address.postalCode.trim();
  if (!ZIP.test(zip)) return { status: "address-invalid", message: "Enter the ZIP code as five digits, or ZIP+4 (12345-6789)." };
  const zipState = stateOfZip(zip);
  if (zipState === null) {
    return {
      status: "address-invalid",
      message: `The ZIP code ${zip} is not in one of the 50 states or the District of Columbia: check the shipping address.`,
    };
  }
  if (zipState !== state) {
    return {
      status: "address-invalid",
      message: `The ZIP code ${zip} is not in ${US_STATE_NAMES[state]}: check the state and the ZIP code.`,
    };
  }
  return { status: "placed", state };
}

/** What a caller must never send (a bug, not a shopper's mistake): refused as Stripe would refuse it. */
function assertCalculable(input: TaxCalculationInput): void {
  const references = new Set<string>();
  const codes = new Set<string>(Object.values(TAX_CODES));
  for (const line of input.lines) {
    assertReference(line.reference);
    if (references.has(line.reference)) throw new TaxError(`Two lines have the reference ${line.reference}.`, PROVIDER);
    references.add(line.reference);
    assertCents(line.amountCents, `The amount of line ${line.reference}`);
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new TaxError(`The quantity of line ${line.reference} is not a positive whole number.`, PROVIDER);
    }
    if (!codes.has(line.taxCode)) throw new TaxError(`Line ${line.reference} has an unknown tax code: ${line.taxCode}.`, PROVIDER);
  }
  assertCents(input.shippingCents, "The shipping charge");
}

function assertReversible(input: TaxReversalInput): void {
  if (!input.originalTransactionId.startsWith(TRANSACTION_PREFIX)) {
    throw new TaxError(`${input.originalTransactionId} is not a transaction of the offline tax table.`, PROVIDER);
  }
  assertReference(input.reference);
  if (input.mode === "full") return;
  if (!input.lines?.length && !input.shipping) throw new TaxError("A partial reversal names lines or shipping to give back.", PROVIDER);
  for (const line of input.lines ?? []) {
    assertReference(line.reference);
    assertCents(line.amountCents, `The amount given back of line ${line.reference}`);
    assertCents(line.taxCents, `The tax given back of line ${line.reference}`);
  }
  if (input.shipping) {
    assertCents(input.shipping.amountCents, "The shipping given back");
    assertCents(input.shipping.taxCents, "The shipping tax given back");
  }
}

function assertReference(reference: string): void {
  if (reference.trim() === "") throw new TaxError("A reference is empty.", PROVIDER);
}

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TaxError(`${what} is not a whole, non-negative number of cents: ${value}.`, PROVIDER);
}
