import type Stripe from "stripe";
import { z } from "zod";
import { importOnce } from "~/utils/import-once.server";
import { stripeConnection } from "../payments/stripe.server";
import {
  TAX_CODES,
  TaxError,
  type TaxCalculationInput,
  type TaxCalculationResult,
  type TaxJurisdiction,
  type TaxReversalInput,
  type TaxService,
  type TaxTransactionRecord,
} from "./types";

const PROVIDER = "stripe";
const TIMEOUT_MS = 5_000;
/** The SDK retries connection errors, 409 and 5xx answers, POSTs with an idempotency key of its own or ours. */
const MAX_NETWORK_RETRIES = 1;
const CURRENCY = "usd";
/** Stripe's largest page; a calculation answers its first 100 lines itself. */
const PAGE_SIZE = 100;
const MAX_LINES = 10_000;
const LOCATION_INVALID = "customer_tax_location_invalid";
export const STRIPE_TAX_ADDRESS_INVALID =
  "We could not place this address for sales tax: check the street, city, state and ZIP code of the shipping address.";
const loadSdk = importOnce(async () => (await import("stripe")).default);

export interface StripeTaxOptions {
  secretKey: string;
  /** e.g. `http://127.0.0.1:PORT` for a local fake; Stripe's own API when unset. */
  apiBase?: string | undefined;
  /** 5 s: the shopper waits for it at checkout. */
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

const integer = z.number().int();
const stripeId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}[A-Za-z0-9_]+$`))
    .max(255);
const breakdown = z.object({
  amount: integer,
  jurisdiction: z.object({ display_name: z.string(), level: z.string() }),
  tax_rate_details: z.object({ percentage_decimal: z.string().regex(/^\d+(\.\d+)?$/) }).nullable(),
  taxability_reason: z.string(),
});
const calculationLine = z.object({ reference: z.string(), amount_tax: integer, tax_breakdown: z.array(breakdown).nullish() });
const calculationAnswer = z.object({
  id: stripeId("taxcalc_"),
  expires_at: integer,
  tax_amount_exclusive: integer,
  tax_breakdown: z.array(z.object({ taxability_reason: z.string() })),
  line_items: z.object({ data: z.array(calculationLine), has_more: z.boolean() }).nullish(),
  shipping_cost: z.object({ amount_tax: integer, tax_breakdown: z.array(breakdown).nullish() }).nullish(),
});
const transactionAnswer = z.object({ id: stripeId("tax_") });
const transactionLine = z.object({ id: z.string().min(1), reference: z.string() });

type CalculationLine = z.infer<typeof calculationLine>;
type Breakdown = z.infer<typeof breakdown>;

/**
 * Sales tax from Stripe Tax (https://docs.stripe.com/tax/custom): a Calculation for the order, a Transaction
 * made from it once the order is paid (reference: the Order ID), and reversals when money goes back. Stripe
 * knows the merchant's registrations, so it answers `not_collecting` where there is none. Every failure of the
 * SDK or of Stripe's answer becomes a TaxError; only an address Stripe cannot place is an answer of its own.
 */
export function createStripeTaxService(options: StripeTaxOptions): TaxService {
  const connect = importOnce(async () => {
    const StripeClient = await loadSdk();
    return new StripeClient(options.secretKey, {
      timeout: options.timeoutMs ?? TIMEOUT_MS,
      maxNetworkRetries: options.maxNetworkRetries ?? MAX_NETWORK_RETRIES,
      ...stripeConnection(options.apiBase),
    });
  });

  async function call<T>(what: string, request: (stripe: Stripe) => Promise<T>): Promise<T> {
    try {
      return await request(await connect());
    } catch (error) {
      throw await taxErrorOf(what, error);
    }
  }

  async function calculate(input: TaxCalculationInput): Promise<TaxCalculationResult> {
    let created: unknown;
    try {
      created = await (await connect()).tax.calculations.create(calculationParams(input));
    } catch (error) {
      if (await isLocationInvalid(error)) return { status: "address-invalid", message: STRIPE_TAX_ADDRESS_INVALID };
      throw await taxErrorOf("calculate tax", error);
    }
    const calculation = parsed(calculationAnswer, created, "calculate tax");
    const lines =
      calculation.line_items && !calculation.line_items.has_more ? calculation.line_items.data : await listLines(calculation.id);
    return { status: "calculated", calculation: taxCalculation(input, calculation, lines) };
  }

  async function listLines(calculationId: string): Promise<CalculationLine[]> {
    const what = "list a tax calculation's lines";
    const lines = await call(what, (stripe) =>
      stripe.tax.calculations
        .listLineItems(calculationId, { limit: PAGE_SIZE, expand: ["data.tax_breakdown"] })
        .autoPagingToArray({ limit: MAX_LINES }),
    );
    return parsed(z.array(calculationLine), lines, what);
  }

  async function commit({ calculationId, reference, idempotencyKey }: Parameters<TaxService["commit"]>[0]): Promise<TaxTransactionRecord> {
    if (!stripeId("taxcalc_").safeParse(calculationId).success) {
      throw new TaxError(`${calculationId} is not a Stripe Tax calculation.`, PROVIDER);
    }
    const what = "commit a tax calculation";
    const created = await call(what, (stripe) =>
      stripe.tax.transactions.createFromCalculation({ calculation: calculationId, reference }, { idempotencyKey }),
    );
    const { id } = parsed(transactionAnswer, created, what);
    const lines = await call("list a tax transaction's lines", (stripe) =>
      stripe.tax.transactions.listLineItems(id, { limit: PAGE_SIZE }).autoPagingToArray({ limit: MAX_LINES }),
    );
    const lineItemIds = Object.fromEntries(parsed(z.array(transactionLine), lines, what).map((line) => [line.reference, line.id]));
    return { transactionId: id, lineItemIds };
  }

  /** A reversal's own lines are never reversed in turn, so their ids are not asked for: lineItemIds is empty. */
  async function reverse(input: TaxReversalInput): Promise<TaxTransactionRecord> {
    const what = `reverse a tax transaction (${input.mode})`;
    const params = reversalParams(input);
    const created = await call(what, (stripe) => stripe.tax.transactions.createReversal(params, { idempotencyKey: input.idempotencyKey }));
    return { transactionId: parsed(transactionAnswer, created, what).id, lineItemIds: {} };
  }

  return {
    id: PROVIDER,
    name: "Stripe Tax",
    isStandIn: false,
    registeredStates: null,
    calculate,
    commit,
    reverse,
  };
}

function calculationParams({ lines, shippingCents, address }: TaxCalculationInput): Stripe.Tax.CalculationCreateParams {
  return {
    currency: CURRENCY,
    line_items: lines.map((line) => ({
      amount: line.amountCents,
      quantity: line.quantity,
      reference: line.reference,
      tax_code: line.taxCode,
      tax_behavior: "exclusive",
    })),
    customer_details: {
      address: {
        line1: address.line1,
        city: address.city,
        state: address.state,
        postal_code: address.postalCode,
        country: address.country,
      },
      address_source: "shipping",
    },
    ...(shippingCents > 0 ? { shipping_cost: { amount: shippingCents, tax_code: TAX_CODES.shipping, tax_behavior: "exclusive" } } : {}),
    expand: ["line_items.data.tax_breakdown", "shipping_cost.tax_breakdown"],
  };
}

/** Stripe takes what goes back in negative amounts; a full reversal names nothing. */
function reversalParams(input: TaxReversalInput): Stripe.Tax.TransactionCreateReversalParams {
  const base = { mode: input.mode, original_transaction: input.originalTransactionId, reference: input.reference };
  if (input.mode === "full") return base;
  const lines = input.lines ?? [];
  if (lines.length === 0 && !input.shipping) throw new TaxError("A partial reversal names lines or shipping to give back.", PROVIDER);
  for (const cents of [
    ...lines.flatMap((line) => [line.amountCents, line.taxCents]),
    input.shipping?.amountCents ?? 0,
    input.shipping?.taxCents ?? 0,
  ]) {
    if (!Number.isSafeInteger(cents) || cents < 0)
      throw new TaxError(`A reversal gives back a negative or broken amount: ${cents}.`, PROVIDER);
  }
  return {
    ...base,
    ...(lines.length > 0
      ? {
          line_items: lines.map((line) => ({
            original_line_item: line.originalLineItemId,
            reference: line.reference,
            amount: -line.amountCents,
            amount_tax: -line.taxCents,
            quantity: line.quantity,
          })),
        }
      : {}),
    ...(input.shipping ? { shipping_cost: { amount: -input.shipping.amountCents, amount_tax: -input.shipping.taxCents } } : {}),
  };
}

function taxCalculation(
  input: TaxCalculationInput,
  calculation: z.infer<typeof calculationAnswer>,
  stripeLines: CalculationLine[],
): Extract<TaxCalculationResult, { status: "calculated" }>["calculation"] {
  const byReference = new Map(stripeLines.map((line) => [line.reference, line]));
  const lines = input.lines.map(({ reference }) => {
    const line = byReference.get(reference);
    if (!line) throw new TaxError(`Stripe Tax answered a calculation without the line ${reference}.`, PROVIDER);
    return line;
  });
  const shippingTaxCents = calculation.shipping_cost?.amount_tax ?? 0;
  const amountCents = calculation.tax_amount_exclusive;
  if (lines.reduce((sum, line) => sum + line.amount_tax, shippingTaxCents) !== amountCents) {
    throw new TaxError(`Stripe Tax answered lines whose taxes do not add up to the calculation's ${amountCents} cents.`, PROVIDER);
  }
  const breakdowns = [...lines.flatMap((line) => line.tax_breakdown ?? []), ...(calculation.shipping_cost?.tax_breakdown ?? [])];
  return {
    id: calculation.id,
    amountCents,
    lines: lines.map((line) => ({ reference: line.reference, taxCents: line.amount_tax })),
    shippingTaxCents,
    jurisdictions: jurisdictionsOf(breakdowns),
    taxabilityReason: amountCents > 0 ? null : taxabilityReasonOf(calculation, breakdowns),
    expiresAt: new Date(calculation.expires_at * 1000),
  };
}

/** Each jurisdiction's tax summed over the lines and shipping, by level, name and rate; a rate of 0 is no jurisdiction's tax. */
function jurisdictionsOf(breakdowns: Breakdown[]): TaxJurisdiction[] {
  const totals = new Map<string, TaxJurisdiction>();
  for (const { amount, jurisdiction, tax_rate_details: rate } of breakdowns) {
    if (!rate || Number(rate.percentage_decimal) === 0) continue;
    const key = `${jurisdiction.level}|${jurisdiction.display_name}|${rate.percentage_decimal}`;
    const total = totals.get(key) ?? {
      name: jurisdiction.display_name,
      level: jurisdiction.level,
      ratePercent: rate.percentage_decimal,
      amountCents: 0,
    };
    total.amountCents += amount;
    totals.set(key, total);
  }
  return [...totals.values()];
}

function taxabilityReasonOf(calculation: z.infer<typeof calculationAnswer>, breakdowns: Breakdown[]): string {
  return calculation.tax_breakdown[0]?.taxability_reason ?? breakdowns[0]?.taxability_reason ?? "not_subject_to_tax";
}

function parsed<Schema extends z.ZodType>(schema: Schema, answer: unknown, what: string): z.infer<Schema> {
  const result = schema.safeParse(answer);
  if (!result.success) throw new TaxError(`Stripe Tax answered an unexpected body to ${what}.`, PROVIDER);
  return result.data;
}

async function isLocationInvalid(error: unknown): Promise<boolean> {
  const StripeSdk = await loadSdk().catch(() => null);
  return Boolean(StripeSdk && error instanceof StripeSdk.errors.StripeInvalidRequestError && error.code === LOCATION_INVALID);
}

/** No raw SDK error leaves the driver: Stripe's error type, status and message become a TaxError's message. */
async function taxErrorOf(what: string, error: unknown): Promise<TaxError> {
  if (error instanceof TaxError) return error;
  const StripeSdk = await loadSdk().catch(() => null);
  if (StripeSdk && error instanceof StripeSdk.errors.StripeError) {
    const status = typeof error.statusCode === "number" ? error.statusCode : undefined;
    const code = error.code ? ` (${error.code})` : "";
    return new TaxError(
      `Stripe Tax could not ${what}: ${error.type}${status ? ` ${status}` : ""}${code}: ${error.message}`,
      PROVIDER,
      status,
    );
  }
  return new TaxError(`Stripe Tax could not ${what}: ${error instanceof Error ? error.message : String(error)}`, PROVIDER);
}
