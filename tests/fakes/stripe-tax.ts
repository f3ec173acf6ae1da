import { randomBytes } from "node:crypto";
import { bearerToken, startFakeHttpServer, type FakeResponse, type FakeServer, type RecordedRequest } from "./fake-http-server";
import { parseForm, stripeError } from "./stripe";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

type Form = ReturnType<typeof parseForm>;
type Level = "state" | "county" | "city" | "district";

/** One tax of a registration: a jurisdiction and its rate in decimal text ("7.25"). */
export interface FakeTaxRate {
  level: Level;
  displayName: string;
  percent: string;
}

export interface FakeRegistrationOptions {
  /** The state jurisdiction's display_name (default: the state's code). */
  stateName?: string;
  /** County, city or district taxes added to the state's. */
  local?: FakeTaxRate[];
  /** Tax codes the state does not tax (taxability_reason "product_exempt"). */
  exemptTaxCodes?: string[];
  /** Whether the state taxes shipping (default true). */
  shippingTaxable?: boolean;
}

export interface FakeTaxBreakdown {
  amount: number;
  jurisdiction: { country: "US"; display_name: string; level: Level; state: string | null };
  sourcing: "destination";
  tax_rate_details: { display_name: string; percentage_decimal: string; tax_type: "sales_tax" } | null;
  taxability_reason: string;
  taxable_amount: number;
}

export interface FakeCalculationLineItem {
  id: string;
  object: "tax.calculation_line_item";
  amount: number;
  amount_tax: number;
  livemode: false;
  metadata: Record<string, string>;
  performance_location: null;
  product: null;
  quantity: number;
  reference: string;
  tax_behavior: "exclusive";
  tax_code: string;
  tax_breakdown: FakeTaxBreakdown[];
}

export interface FakeShippingCost {
  amount: number;
  amount_tax: number;
  tax_behavior: "exclusive";
  tax_code: string;
  tax_breakdown?: FakeTaxBreakdown[];
}

interface FakeCustomerDetails {
  address: {
    city: string | null;
    country: string;
    line1: string | null;
    line2: string | null;
    postal_code: string | null;
    state: string | null;
  };
  address_source: string | null;
  ip_address: null;
  tax_ids: [];
  taxability_override: "none";
}

/** A Tax Calculation (https://docs.stripe.com/api/tax/calculations/object), kept with every line and breakdown. */
export interface FakeTaxCalculation {
  id: string;
  object: "tax.calculation";
  amount_total: number;
  currency: string;
  customer: null;
  customer_details: FakeCustomerDetails;
  expires_at: number;
  line_items: FakeCalculationLineItem[];
  livemode: false;
  ship_from_details: null;
  shipping_cost: FakeShippingCost | null;
  tax_amount_exclusive: number;
  tax_amount_inclusive: 0;
  tax_breakdown: {
    amount: number;
    inclusive: false;
    tax_rate_details: {
      country: "US";
      flat_amount: null;
      percentage_decimal: string;
      rate_type: "percentage" | null;
      state: string | null;
      tax_type: "sales_tax" | null;
    };
    taxability_reason: string;
    taxable_amount: number;
  }[];
  tax_date: number;
}

export interface FakeTransactionLineItem {
  id: string;
  object: "tax.transaction_line_item";
  amount: number;
  amount_tax: number;
  livemode: false;
  metadata: Record<string, string>;
  product: null;
  quantity: number;
  reference: string;
  reversal: { original_line_item: string } | null;
  tax_behavior: "exclusive";
  tax_code: string;
  type: "transaction" | "reversal";
}

/** A Tax Transaction (https://docs.stripe.com/api/tax/transactions/object), or a reversal of one, with every line. */
export interface FakeTaxTransaction {
  id: string;
  object: "tax.transaction";
  created: number;
  currency: string;
  customer: null;
  customer_details: FakeCustomerDetails;
  line_items: FakeTransactionLineItem[];
  livemode: false;
  metadata: Record<string, string>;
  posted_at: number;
  reference: string;
  reversal: { original_transaction: string } | null;
  ship_from_details: null;
  shipping_cost: Omit<FakeShippingCost, "tax_breakdown"> | null;
  tax_date: number;
  type: "transaction" | "reversal";
}

export interface FakeStripeTax extends FakeServer {
  /** The fake's own Stripe-like answers, to go back to inside a `respondWith` handler. */
  readonly answerLikeStripe: (request: RecordedRequest) => FakeResponse;
  readonly calculations: Map<string, FakeTaxCalculation>;
  /** Transactions made from calculations, by id. */
  readonly transactions: Map<string, FakeTaxTransaction>;
  /** Reversals, by id (each names its original in `reversal.original_transaction`). */
  readonly reversals: Map<string, FakeTaxTransaction>;
  /** From now on the merchant collects in this state at this rate (plus `local` ones). */
  setRegistration(state: string, percent: string, options?: FakeRegistrationOptions): void;
  /** From now on a calculation for this postal code is refused with `customer_tax_location_invalid`. */
  markAddressInvalid(postalCode: string): void;
  /** Makes a calculation expired, as 90 days later. */
  expireCalculation(id: string): void;
  /** Answers every later request as usual, but only after this many milliseconds. */
  answerSlowly(delayMs: number): void;
}

/** The only API key the fake takes (401 for any other), unless `startFakeStripeTax` is given another. */
export const FAKE_STRIPE_TAX_KEY = "sk_test_fake_stripe_tax";

/**
 * The settings that point the store's tax service at the fake (Stripe Tax, with the fake's key). The store
 * takes Stripe's two keys together, so the publishable one is set too: Stripe card payments count as
 * configured (point STRIPE_API_BASE at the card fake, or set PAYMENTS_TEST_MODE=on to pay on the test page).
 */
export function fakeStripeTaxSettings(fake: { url: string }): Record<string, string> {
  return {
    TAX_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: FAKE_STRIPE_TAX_KEY,
    STRIPE_PUBLISHABLE_KEY: "pk_test_fake_stripe_tax",
    STRIPE_TAX_API_BASE: fake.url,
  };
}

const DAY_SECONDS = 24 * 60 * 60;
const VALID_FOR_SECONDS = 90 * DAY_SECONDS;
/** A calculation answers its first 100 lines (API reference, "Create a Tax Calculation", Returns). */
const EMBEDDED_LINES = 100;
const DEFAULT_PAGE = 10;
const MAX_PAGE = 100;
const DEFAULT_TAX_CODE = "txcd_99999999";
const SHIPPING_TAX_CODE = "txcd_92010001";
/** Rates are counted in ten-thousandths of a percent, the fake's integer arithmetic. */
const RATE_SCALE = 10_000;

interface Registration {
  rates: FakeTaxRate[];
  exemptTaxCodes: Set<string>;
  shippingTaxable: boolean;
}

/** What remains of each original line (and its shipping) to be reversed. */
interface Remaining {
  lines: Map<string, { amount: number; amountTax: number }>;
  shipping: { amount: number; amountTax: number };
  /** Whether any reversal (full or partial) was made: a full one is possible only before. */
  anyReversal: boolean;
}

/**
 * A local stand-in for Stripe Tax's API, enough for the store's driver (app/services/tax/stripe-tax.server.ts),
 * following the API reference:
 * - POST /v1/tax/calculations: https://docs.stripe.com/api/tax/calculations/create
 * - GET /v1/tax/calculations/:id/line_items: https://docs.stripe.com/api/tax/calculations/line_items
 * - POST /v1/tax/transactions/create_from_calculation: https://docs.stripe.com/api/tax/transactions/create_from_calculation
 * - GET /v1/tax/transactions/:id/line_items: https://docs.stripe.com/api/tax/transactions/line_items
 * - POST /v1/tax/transactions/create_reversal: https://docs.stripe.com/api/tax/transactions/create_reversal
 * Bodies are form-encoded and the secret key is a Bearer token, as at Stripe; the tax comes from the rates a
 * test registers per state (`setRegistration("CA", "7.25")`), rounded half up per jurisdiction and line, and a
 * state without one is `not_collecting`. Idempotency keys replay the first successful answer, as Stripe does.
 */
export async function startFakeStripeTax({ secretKey = FAKE_STRIPE_TAX_KEY }: { secretKey?: string } = {}): Promise<FakeStripeTax> {
  const calculations = new Map<string, FakeTaxCalculation>();
  const transactions = new Map<string, FakeTaxTransaction>();
  const reversals = new Map<string, FakeTaxTransaction>();
  const remaining = new Map<string, Remaining>();
  const registrations = new Map<string, Registration>();
  const invalidPostalCodes = new Set<string>();
  const idempotentAnswers = new Map<string, { path: string; rawBody: string; response: FakeResponse }>();

  function answer(request: RecordedRequest): FakeResponse {
    const url = new URL(request.path, "http://fake");
    if (bearerToken(request.headers) !== secretKey) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided.", { code: "api_key_invalid" });
    }
    if (request.method === "GET") return answerList(url.pathname, parseForm(url.search.slice(1)));
    const key = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : null;
    if (request.method !== "POST" || !key) return answerPost(request.method, url.pathname, parseForm(request.rawBody));
    const previous = idempotentAnswers.get(key);
    if (previous && (previous.path !== url.pathname || previous.rawBody !== request.rawBody)) {
      return stripeError(
        400,
        "idempotency_error",
        "Keys for idempotent requests can only be used with the same parameters they were first used with.",
      );
    }
    if (previous) return { ...previous.response, headers: { ...previous.response.headers, "idempotent-replayed": "true" } };
    const first = answerPost(request.method, url.pathname, parseForm(request.rawBody));
    // Stripe keeps the result of a request that ran, not of one refused for its parameters.
    if (first.status === 200) idempotentAnswers.set(key, { path: url.pathname, rawBody: request.rawBody, response: first });
    return first;
  }

  function answerPost(method: string, path: string, params: Form): FakeResponse {
    if (method === "POST" && path === "/v1/tax/calculations") return createCalculation(record(params));
    if (method === "POST" && path === "/v1/tax/transactions/create_from_calculation") return createFromCalculation(record(params));
    if (method === "POST" && path === "/v1/tax/transactions/create_reversal") return createReversal(record(params));
    return unrecognized(method, path);
  }

  function answerList(path: string, query: Form): FakeResponse {
    const calculationLines = /^\/v1\/tax\/calculations\/([^/]+)\/line_items$/.exec(path);
    if (calculationLines) {
      const calculation = calculations.get(calculationLines[1]!);
      if (!calculation) return missing("tax.calculation", calculationLines[1]!);
      if (calculation.expires_at <= now()) return expired(calculation.id);
      const withBreakdown = expansions(record(query)).includes("data.tax_breakdown");
      return page(
        path,
        calculation.line_items.map((line) => (withBreakdown ? line : withoutBreakdown(line))),
        record(query),
      );
    }
    const transactionLines = /^\/v1\/tax\/transactions\/([^/]+)\/line_items$/.exec(path);
    if (transactionLines) {
      const transaction = transactions.get(transactionLines[1]!) ?? reversals.get(transactionLines[1]!);
      if (!transaction) return missing("tax.transaction", transactionLines[1]!);
      return page(path, transaction.line_items, record(query));
    }
    return unrecognized("GET", path);
  }

  function createCalculation(params: Record<string, Form>): FakeResponse {
    if (typeof params.currency !== "string" || !/^[a-z]{3}$/.test(params.currency)) return missingParam("currency");
    const details = record(params.customer_details);
    const address = record(details.address);
    if (typeof address.country !== "string" || address.country === "") return missingParam("customer_details[address][country]");
    const postalCode = typeof address.postal_code === "string" ? address.postal_code : "";
    if ((address.country === "US" && postalCode === "") || invalidPostalCodes.has(postalCode)) {
      return stripeError(
        400,
        "invalid_request_error",
        "We could not determine the customer's tax location based on the provided customer address.",
        {
          code: "customer_tax_location_invalid",
          param: "customer_details[address]",
        },
      );
    }
    const state = typeof address.state === "string" ? address.state.toUpperCase() : "";
    const lines = readCalculationLines(params.line_items);
    if (typeof lines === "string") return invalidParam(lines);
    const shipping = readShipping(params.shipping_cost);
    if (typeof shipping === "string") return invalidParam(shipping);

    const registration = registrations.get(state);
    const taxedLines = lines.map((line) => {
      const { breakdown, total } = taxOf(line.amount, line.taxCode, state, registration, false);
      return { ...line, breakdown, total };
    });
    const shippingTax = shipping ? taxOf(shipping.amount, shipping.taxCode, state, registration, true) : null;
    const taxTotal = taxedLines.reduce((sum, line) => sum + line.total, shippingTax?.total ?? 0);
    const id = `taxcalc_${randomId()}`;
    const calculation: FakeTaxCalculation = {
      id,
      object: "tax.calculation",
      amount_total: lines.reduce((sum, line) => sum + line.amount, shipping?.amount ?? 0) + taxTotal,
      currency: params.currency,
      customer: null,
      customer_details: customerDetails(address, details.address_source),
      expires_at: now() + VALID_FOR_SECONDS,
      line_items: taxedLines.map((line) => ({
        id: `tax_li_${randomId()}`,
        object: "tax.calculation_line_item",
        amount: line.amount,
        amount_tax: line.total,
        livemode: false,
        metadata: {},
        performance_location: null,
        product: null,
        quantity: line.quantity,
        reference: line.reference,
        tax_behavior: "exclusive",
        tax_code: line.taxCode,
        tax_breakdown: line.breakdown,
      })),
      livemode: false,
      ship_from_details: null,
      shipping_cost:
        shipping && shippingTax
          ? {
              amount: shipping.amount,
              amount_tax: shippingTax.total,
              tax_behavior: "exclusive",
              tax_code: shipping.taxCode,
              tax_breakdown: shippingTax.breakdown,
            }
          : null,
      tax_amount_exclusive: taxTotal,
      tax_amount_inclusive: 0,
      tax_breakdown: summaryBreakdown(
        [...taxedLines.map((line) => line.breakdown), ...(shippingTax ? [shippingTax.breakdown] : [])],
        state || null,
      ),
      tax_date: now(),
    };
    calculations.set(id, calculation);
    return { status: 200, body: renderCalculation(calculation, expansions(params)) };
  }

  /** The tax of one line (or the shipping) in each registered jurisdiction, each rounded half up on its own. */
  function taxOf(amount: number, taxCode: string, state: string, registration: Registration | undefined, isShipping: boolean) {
    const stateJurisdiction = { country: "US" as const, display_name: state, level: "state" as const, state };
    if (!registration) {
      const notCollecting: FakeTaxBreakdown = {
        amount: 0,
        jurisdiction: stateJurisdiction,
        sourcing: "destination",
        tax_rate_details: null,
        taxability_reason: "not_collecting",
        taxable_amount: 0,
      };
      return { breakdown: [notCollecting], total: 0 };
    }
    const exempt = isShipping ? !registration.shippingTaxable : registration.exemptTaxCodes.has(taxCode);
    const reason = exempt ? (isShipping ? "not_subject_to_tax" : "product_exempt") : "standard_rated";
    const breakdown: FakeTaxBreakdown[] = registration.rates.map((rate) => {
      const cents = exempt ? 0 : roundedShare(amount, rateUnits(rate.percent));
      return {
        amount: cents,
        jurisdiction: { country: "US", display_name: rate.displayName, level: rate.level, state },
        sourcing: "destination",
        tax_rate_details: { display_name: "Sales Tax", percentage_decimal: exempt ? "0.0" : rate.percent, tax_type: "sales_tax" },
        taxability_reason: reason,
        taxable_amount: exempt ? 0 : amount,
      };
    });
    return { breakdown, total: breakdown.reduce((sum, part) => sum + part.amount, 0) };
  }

  function createFromCalculation(params: Record<string, Form>): FakeResponse {
    if (typeof params.calculation !== "string") return missingParam("calculation");
    if (typeof params.reference !== "string" || params.reference === "") return missingParam("reference");
    const calculation = calculations.get(params.calculation);
    if (!calculation) return missing("tax.calculation", params.calculation);
    if (calculation.expires_at <= now()) return expired(calculation.id);
    if (referenceTaken(params.reference)) return duplicateReference(params.reference);
    const transaction = newTransaction(calculation.customer_details, calculation.currency, params.reference, "transaction", null);
    transaction.line_items = calculation.line_items.map((line) =>
      transactionLine(line.reference, line.amount, line.amount_tax, line.quantity, line.tax_code, null),
    );
    transaction.shipping_cost = calculation.shipping_cost ? withoutShippingBreakdown(calculation.shipping_cost) : null;
    transactions.set(transaction.id, transaction);
    remaining.set(transaction.id, {
      lines: new Map(transaction.line_items.map((line) => [line.id, { amount: line.amount, amountTax: line.amount_tax }])),
      shipping: { amount: transaction.shipping_cost?.amount ?? 0, amountTax: transaction.shipping_cost?.amount_tax ?? 0 },
      anyReversal: false,
    });
    return { status: 200, body: renderTransaction(transaction, expansions(params)) };
  }

  function createReversal(params: Record<string, Form>): FakeResponse {
    if (params.mode !== "full" && params.mode !== "partial") return invalidParam("mode");
    if (typeof params.reference !== "string" || params.reference === "") return missingParam("reference");
    const originalId = typeof params.original_transaction === "string" ? params.original_transaction : "";
    const original = transactions.get(originalId);
    const left = remaining.get(originalId);
    if (!original || !left) return missing("tax.transaction", originalId);
    if (referenceTaken(params.reference)) return duplicateReference(params.reference);
    if (params.flat_amount !== undefined) return invalidParam("flat_amount");
    const reversal =
      params.mode === "full" ? fullReversal(original, left, params.reference) : partialReversal(original, left, params.reference, params);
    if (!("id" in reversal)) return reversal;
    reversals.set(reversal.id, reversal);
    return { status: 200, body: renderTransaction(reversal, expansions(params)) };
  }

  function fullReversal(original: FakeTaxTransaction, left: Remaining, reference: string): FakeTaxTransaction | FakeResponse {
    if (left.anyReversal) {
      return stripeError(
        400,
        "invalid_request_error",
        `Transaction ${original.id} has already been reversed; a full reversal is possible only once, before any partial one.`,
        {
          param: "original_transaction",
        },
      );
    }
    const reversal = newTransaction(original.customer_details, original.currency, reference, "reversal", original.id);
    reversal.line_items = original.line_items.map((line) =>
      transactionLine(`${line.reference}-reversal`, -line.amount, -line.amount_tax, line.quantity, line.tax_code, line.id),
    );
    reversal.shipping_cost = original.shipping_cost
      ? { ...original.shipping_cost, amount: -original.shipping_cost.amount, amount_tax: -original.shipping_cost.amount_tax }
      : null;
    for (const line of left.lines.values()) Object.assign(line, { amount: 0, amountTax: 0 });
    Object.assign(left, { shipping: { amount: 0, amountTax: 0 }, anyReversal: true });
    return reversal;
  }

  function partialReversal(
    original: FakeTaxTransaction,
    left: Remaining,
    reference: string,
    params: Record<string, Form>,
  ): FakeTaxTransaction | FakeResponse {
    const asked = readReversalLines(params.line_items);
    if (typeof asked === "string") return invalidParam(asked);
    const shippingAsked = params.shipping_cost === undefined ? null : readReversalAmounts(record(params.shipping_cost));
    if (shippingAsked === "invalid") return invalidParam("shipping_cost");
    if (asked.length === 0 && !shippingAsked) return missingParam("line_items");
    const references = new Set(asked.map((line) => line.reference));
    if (references.size !== asked.length) return invalidParam("line_items[reference]");
    for (const line of asked) {
      const rest = left.lines.get(line.originalLineItem);
      if (!rest) return invalidParam("line_items[original_line_item]", `No line item ${line.originalLineItem} in ${original.id}.`);
      if (-line.amount > rest.amount || -line.amountTax > rest.amountTax) {
        return invalidParam("line_items[amount]", `The amount to reverse exceeds what remains of line item ${line.originalLineItem}.`);
      }
    }
    if (shippingAsked && (-shippingAsked.amount > left.shipping.amount || -shippingAsked.amountTax > left.shipping.amountTax)) {
      return invalidParam("shipping_cost[amount]", "The shipping amount to reverse exceeds what remains of the shipping cost.");
    }
    const reversal = newTransaction(original.customer_details, original.currency, reference, "reversal", original.id);
    reversal.line_items = asked.map((line) => {
      const originalLine = original.line_items.find((candidate) => candidate.id === line.originalLineItem)!;
      const rest = left.lines.get(line.originalLineItem)!;
      rest.amount += line.amount;
      rest.amountTax += line.amountTax;
      return transactionLine(
        line.reference,
        line.amount,
        line.amountTax,
        line.quantity ?? originalLine.quantity,
        originalLine.tax_code,
        originalLine.id,
      );
    });
    if (shippingAsked && original.shipping_cost) {
      left.shipping.amount += shippingAsked.amount;
      left.shipping.amountTax += shippingAsked.amountTax;
      reversal.shipping_cost = { ...original.shipping_cost, amount: shippingAsked.amount, amount_tax: shippingAsked.amountTax };
    }
    left.anyReversal = true;
    return reversal;
  }

  function referenceTaken(reference: string): boolean {
    return [...transactions.values(), ...reversals.values()].some((transaction) => transaction.reference === reference);
  }

  const server = await startFakeHttpServer(answer);
  const resetServer = server.reset.bind(server);
  return Object.assign(server, {
    /** Default answers again, and no requests, objects, registrations, invalid addresses or idempotency keys remembered. */
    reset() {
      resetServer();
      for (const map of [calculations, transactions, reversals, remaining, registrations, idempotentAnswers]) map.clear();
      invalidPostalCodes.clear();
    },
    answerLikeStripe: answer,
    calculations,
    transactions,
    reversals,
    setRegistration(state: string, percent: string, options: FakeRegistrationOptions = {}) {
      const code = state.toUpperCase();
      registrations.set(code, {
        rates: [{ level: "state", displayName: options.stateName ?? code, percent }, ...(options.local ?? [])],
        exemptTaxCodes: new Set(options.exemptTaxCodes ?? []),
        shippingTaxable: options.shippingTaxable ?? true,
      });
    },
    markAddressInvalid(postalCode: string) {
      invalidPostalCodes.add(postalCode);
    },
    expireCalculation(id: string) {
      const calculation = calculations.get(id);
      if (!calculation) throw new Error(`fake Stripe Tax has no ${id}`);
      calculation.expires_at = now() - 1;
    },
    answerSlowly(delayMs: number) {
      server.respondWith(async (request) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return answer(request);
      });
    },
  });
}

function renderCalculation(calculation: FakeTaxCalculation, expand: string[]): object {
  const withBreakdown = expand.includes("line_items.data.tax_breakdown");
  const lines = calculation.line_items.map((line) => (withBreakdown ? line : withoutBreakdown(line)));
  const shipping = calculation.shipping_cost;
  return {
    ...calculation,
    line_items: list(`/v1/tax/calculations/${calculation.id}/line_items`, lines.slice(0, EMBEDDED_LINES), lines.length > EMBEDDED_LINES),
    shipping_cost: shipping && !expand.includes("shipping_cost.tax_breakdown") ? withoutShippingBreakdown(shipping) : shipping,
  };
}

/** A transaction's lines are "includable": only there when `expand[]=line_items` asks for them. */
function renderTransaction(transaction: FakeTaxTransaction, expand: string[]): object {
  const { line_items: lines, ...rest } = transaction;
  if (!expand.includes("line_items")) return rest;
  return {
    ...rest,
    line_items: list(`/v1/tax/transactions/${transaction.id}/line_items`, lines.slice(0, EMBEDDED_LINES), lines.length > EMBEDDED_LINES),
  };
}

function withoutBreakdown({ tax_breakdown: _breakdown, ...line }: FakeCalculationLineItem): Omit<FakeCalculationLineItem, "tax_breakdown"> {
  return line;
}

function withoutShippingBreakdown({ tax_breakdown: _breakdown, ...shipping }: FakeShippingCost): Omit<FakeShippingCost, "tax_breakdown"> {
  return shipping;
}

/** One page of a list, by `limit` (1-100, default 10), `starting_after` or `ending_before` (https://docs.stripe.com/api/pagination). */
function page<Item extends { id: string }>(url: string, items: Item[], query: Record<string, Form>): FakeResponse {
  const limit = query.limit === undefined ? DEFAULT_PAGE : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) return invalidParam("limit");
  const cursor =
    typeof query.starting_after === "string" ? query.starting_after : typeof query.ending_before === "string" ? query.ending_before : null;
  const at = cursor === null ? -1 : items.findIndex((item) => item.id === cursor);
  if (cursor !== null && at < 0) return invalidParam(typeof query.starting_after === "string" ? "starting_after" : "ending_before");
  if (typeof query.ending_before === "string") {
    const start = Math.max(0, at - limit);
    return { status: 200, body: list(url, items.slice(start, at), start > 0) };
  }
  const start = at + 1;
  return { status: 200, body: list(url, items.slice(start, start + limit), start + limit < items.length) };
}

function list<Item>(url: string, data: Item[], hasMore: boolean) {
  return { object: "list", data, has_more: hasMore, url };
}

function readCalculationLines(value: Form | undefined) {
  const entries = Object.values(record(value));
  if (entries.length === 0) return "line_items";
  const lines: { amount: number; quantity: number; reference: string; taxCode: string }[] = [];
  for (const entry of entries.map(record)) {
    const amount = integerOf(entry.amount);
    if (amount === null || amount < 0) return "line_items[amount]";
    const quantity = entry.quantity === undefined ? 1 : integerOf(entry.quantity);
    if (quantity === null || quantity < 1) return "line_items[quantity]";
    if (typeof entry.reference !== "string" || entry.reference === "" || lines.some((line) => line.reference === entry.reference)) {
      return "line_items[reference]";
    }
    if (entry.tax_behavior !== undefined && entry.tax_behavior !== "exclusive") return "line_items[tax_behavior]";
    lines.push({
      amount,
      quantity,
      reference: entry.reference,
      taxCode: typeof entry.tax_code === "string" ? entry.tax_code : DEFAULT_TAX_CODE,
    });
  }
  return lines;
}

function readShipping(value: Form | undefined) {
  if (value === undefined) return null;
  const shipping = record(value);
  const amount = integerOf(shipping.amount);
  if (amount === null || amount < 0) return "shipping_cost[amount]";
  if (shipping.tax_behavior !== undefined && shipping.tax_behavior !== "exclusive") return "shipping_cost[tax_behavior]";
  return { amount, taxCode: typeof shipping.tax_code === "string" ? shipping.tax_code : SHIPPING_TAX_CODE };
}

function readReversalLines(value: Form | undefined) {
  const lines: { originalLineItem: string; reference: string; amount: number; amountTax: number; quantity: number | null }[] = [];
  for (const entry of Object.values(record(value)).map(record)) {
    const amounts = readReversalAmounts(entry);
    if (amounts === "invalid") return "line_items[amount]";
    if (typeof entry.original_line_item !== "string") return "line_items[original_line_item]";
    if (typeof entry.reference !== "string" || entry.reference === "") return "line_items[reference]";
    const quantity = entry.quantity === undefined ? null : integerOf(entry.quantity);
    if (quantity !== null && quantity < 1) return "line_items[quantity]";
    lines.push({ originalLineItem: entry.original_line_item, reference: entry.reference, ...amounts, quantity });
  }
  return lines;
}

/** A reversal's amounts are negative (or zero): what goes back. */
function readReversalAmounts(entry: Record<string, Form>): { amount: number; amountTax: number } | "invalid" {
  const amount = integerOf(entry.amount);
  const amountTax = integerOf(entry.amount_tax);
  if (amount === null || amountTax === null || amount > 0 || amountTax > 0) return "invalid";
  return { amount, amountTax };
}

/** The calculation's summary: its breakdowns grouped by taxability reason and combined rate. */
function summaryBreakdown(breakdowns: FakeTaxBreakdown[][], state: string | null): FakeTaxCalculation["tax_breakdown"] {
  const groups = new Map<string, FakeTaxCalculation["tax_breakdown"][number]>();
  for (const parts of breakdowns) {
    const reason = parts[0]?.taxability_reason ?? "not_collecting";
    const units = parts.reduce((sum, part) => sum + (part.tax_rate_details ? rateUnits(part.tax_rate_details.percentage_decimal) : 0), 0);
    const key = `${reason}|${units}`;
    const group = groups.get(key) ?? {
      amount: 0,
      inclusive: false,
      tax_rate_details: {
        country: "US",
        flat_amount: null,
        percentage_decimal: formatRate(units),
        rate_type: reason === "not_collecting" ? null : "percentage",
        state,
        tax_type: reason === "not_collecting" ? null : "sales_tax",
      },
      taxability_reason: reason,
      taxable_amount: 0,
    };
    group.amount += parts.reduce((sum, part) => sum + part.amount, 0);
    group.taxable_amount += parts[0]?.taxable_amount ?? 0;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function newTransaction(
  customerDetails: FakeCustomerDetails,
  currency: string,
  reference: string,
  type: FakeTaxTransaction["type"],
  originalTransaction: string | null,
): FakeTaxTransaction {
  return {
    id: `tax_${randomId()}`,
    object: "tax.transaction",
    created: now(),
    currency,
    customer: null,
    customer_details: customerDetails,
    line_items: [],
    livemode: false,
    metadata: {},
    posted_at: now(),
    reference,
    reversal: originalTransaction ? { original_transaction: originalTransaction } : null,
    ship_from_details: null,
    shipping_cost: null,
    tax_date: now(),
    type,
  };
}

function transactionLine(
  reference: string,
  amount: number,
  amountTax: number,
  quantity: number,
  taxCode: string,
  originalLineItem: string | null,
): FakeTransactionLineItem {
  return {
    id: `tax_li_${randomId()}`,
    object: "tax.transaction_line_item",
    amount,
    amount_tax: amountTax,
    livemode: false,
    metadata: {},
    product: null,
    quantity,
    reference,
    reversal: originalLineItem ? { original_line_item: originalLineItem } : null,
    tax_behavior: "exclusive",
    tax_code: taxCode,
    type: originalLineItem ? "reversal" : "transaction",
  };
}

function customerDetails(address: Record<string, Form>, source: Form | undefined): FakeCustomerDetails {
  const text = (value: Form | undefined) => (typeof value === "string" ? value : null);
  return {
    address: {
      city: text(address.city),
      country: text(address.country) ?? "",
      line1: text(address.line1),
      line2: text(address.line2),
      postal_code: text(address.postal_code),
      state: text(address.state),
    },
    address_source: text(source),
    ip_address: null,
    tax_ids: [],
    taxability_override: "none",
  };
}

/** amount × percent / 100, rounded half up, in integers (amounts are never negative here). */
function roundedShare(amount: number, units: number): number {
  const scaled = amount * units + (100 * RATE_SCALE) / 2;
  return (scaled - (scaled % (100 * RATE_SCALE))) / (100 * RATE_SCALE);
}

/** "8.875" → 88750 ten-thousandths of a percent. */
function rateUnits(percent: string): number {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(percent);
  if (!match) throw new Error(`fake Stripe Tax cannot read the rate ${percent}`);
  return Number(match[1]) * RATE_SCALE + Number((match[2] ?? "").padEnd(4, "0"));
}

/** 88750 → "8.875", 0 → "0.0", as Stripe writes percentage_decimal. */
function formatRate(units: number): string {
  const whole = Math.floor(units / RATE_SCALE);
  const fraction = String(units % RATE_SCALE)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return `${whole}.${fraction || "0"}`;
}

function expansions(params: Record<string, Form>): string[] {
  const expand = params.expand;
  if (typeof expand === "string") return [expand];
  return Object.values(record(expand)).filter((value): value is string => typeof value === "string");
}

function integerOf(value: Form | undefined): number | null {
  return typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : null;
}

function record(value: Form | undefined): Record<string, Form> {
  return typeof value === "object" && value !== null ? value : {};
}

function missingParam(param: string): FakeResponse {
  return stripeError(400, "invalid_request_error", `Missing required param: ${param}.`, { code: "parameter_missing", param });
}

function invalidParam(param: string, message = `Invalid value for ${param}.`): FakeResponse {
  return stripeError(400, "invalid_request_error", message, { code: "parameter_invalid", param });
}

function missing(kind: string, id: string): FakeResponse {
  return stripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" });
}

function expired(id: string): FakeResponse {
  return stripeError(400, "invalid_request_error", `The Tax Calculation ${id} has expired and can no longer be used.`, {
    param: "calculation",
  });
}

function duplicateReference(reference: string): FakeResponse {
  return stripeError(400, "invalid_request_error", `A transaction with the reference '${reference}' already exists.`, {
    param: "reference",
  });
}

function unrecognized(method: string, path: string): FakeResponse {
  return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
}

function randomId(): string {
  return randomBytes(12).toString("hex");
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
