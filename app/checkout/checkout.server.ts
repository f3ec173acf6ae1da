import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import type { CartLine } from "~/cart/cart";
import { priceCart, unavailableLinesMessage } from "~/cart/cart-view.server";
import type { StoreProduct } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { checkouts, type CheckoutKind, type OrderCustomer, type OrderItem } from "~/db/schema";
import { generateToken } from "~/orders/order-id";
import { MAX_ORDER_TOTAL_CENTS, ORDER_TOO_LARGE_MESSAGE } from "~/pricing/pricing";
import type { StoreRuntime } from "~/store-runtime";
import { calculateCheckoutTax } from "~/tax/checkout-tax.server";
import type { RecordedTax } from "~/tax/recorded-tax";
import type { CustomerInput } from "./customer.server";
import type { SingleCheckoutTotals } from "./single-totals";

export type Checkout = typeof checkouts.$inferSelect;

export function toOrderCustomer(input: CustomerInput): OrderCustomer {
  return {
    name: `${input.firstName} ${input.lastName}`,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    address: input.address,
    city: input.city,
    state: input.state,
    postalCode: input.postalCode,
    country: "USA",
  };
}

export class EmptyCartError extends Error {
  constructor() {
    super("Your cart is empty.");
  }
}

/** A cart holding a product the merchant has hidden since it was added: refused, naming it, before anything is recorded. */
export class UnavailableProductError extends Error {}

/** A cart whose total passes MAX_ORDER_TOTAL_CENTS: refused before anything is recorded. */
export class OrderTooLargeError extends Error {
  constructor() {
    super(ORDER_TOO_LARGE_MESSAGE);
  }
}

/** What checkouts are priced and recorded with: the database, and the tax service of the runtime. */
export type CheckoutServices = Pick<StoreRuntime, "db" | "taxService">;

/** The sales tax could not be worked out (an address the provider cannot place, or the provider is away): nothing is recorded. */
export class CheckoutTaxError extends Error {
  constructor(
    readonly reason: "address" | "unavailable",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Records a pending checkout for the whole cart, priced from the catalog and taxed for its address.
 * `reusable`: the checkout this browser submitted last, given back instead when it is pending and holds
 * exactly the same.
 */
export async function createCartCheckout(
  services: CheckoutServices,
  cart: readonly CartLine[],
  customer: CustomerInput,
  reusable: string | null = null,
): Promise<Checkout> {
  const priced = await priceCart(services.db, cart);
  const unavailable = unavailableLinesMessage(priced.unavailable);
  if (unavailable) throw new UnavailableProductError(unavailable);
  if (priced.lines.length === 0) throw new EmptyCartError();
  // Before the tax service is asked: a cart already past the limit needs no calculation.
  if (priced.totalCents > MAX_ORDER_TOTAL_CENTS) throw new OrderTooLargeError();
  const items: OrderItem[] = priced.lines.map((line) => ({
    productKey: line.productKey,
    title: line.title,
    model: line.model,
    brand: line.brand,
    imageUrl: line.image,
    unitPriceCents: line.unitPriceCents,
    quantity: line.quantity,
  }));
  const untaxed = {
    kind: "cart" as const,
    customer: toOrderCustomer(customer),
    items,
    subtotalCents: priced.subtotalCents,
    shippingCents: priced.shippingCents,
    discountCents: 0,
    promoCode: null,
  };
  return recordCheckout(services.db, reusable, await taxed(services, untaxed));
}

/** A single-product checkout's values before tax (BUY NOW or the seasoning), from the server's totals. */
export function singleCheckoutValues(
  kind: Extract<CheckoutKind, "single" | "seasoning">,
  product: StoreProduct,
  totals: SingleCheckoutTotals,
  customer: CustomerInput,
): UntaxedCheckout {
  return {
    kind,
    customer: toOrderCustomer(customer),
    items: [
      {
        productKey: product.key,
        title: product.title,
        model: product.model,
        brand: product.brand,
        imageUrl: product.image,
        unitPriceCents: product.priceCents,
        quantity: totals.quantity,
      },
    ],
    subtotalCents: totals.subtotalCents,
    shippingCents: totals.shippingCents,
    discountCents: totals.discountCents,
    promoCode: totals.promoApplied ? totals.promoCode : null,
  };
}

/** A checkout before its tax: who, what, shipping and discount. */
export type UntaxedCheckout = Pick<
  Checkout,
  "kind" | "customer" | "items" | "subtotalCents" | "shippingCents" | "discountCents" | "promoCode"
>;

/** A checkout priced in full: its tax and its total. */
export type PricedCheckout = UntaxedCheckout & { taxCents: number; tax: RecordedTax; totalCents: number };

/**
 * The checkout with its sales tax and total (subtotal − discount + shipping + tax), or a CheckoutTaxError;
 * an OrderTooLargeError past the largest total one payment may take.
 */
export async function taxed(services: Pick<CheckoutServices, "taxService">, checkout: UntaxedCheckout): Promise<PricedCheckout> {
  const result = await calculateCheckoutTax(services.taxService, checkout);
  if (!result.ok) throw new CheckoutTaxError(result.reason, result.message);
  const totalCents = checkout.subtotalCents - checkout.discountCents + checkout.shippingCents + result.tax.amountCents;
  if (totalCents > MAX_ORDER_TOTAL_CENTS) throw new OrderTooLargeError();
  return { ...checkout, items: result.items, taxCents: result.tax.amountCents, tax: result.tax, totalCents };
}

type CheckoutValues = Omit<typeof checkouts.$inferInsert, "token">;

/**
 * A pending checkout priced again: its tax calculated anew (it had none, or its calculation is about to
 * expire), at the prices it was created with, recorded as a new checkout. A recorded checkout never
 * changes: the payments started for it carry its amount.
 */
export async function repriceCheckout(services: CheckoutServices, checkout: Checkout): Promise<Checkout> {
  const { kind, customer, subtotalCents, shippingCents, discountCents, promoCode } = checkout;
  const items = checkout.items.map(({ taxCents: _earlierTax, ...item }) => item);
  const values = await taxed(services, { kind, customer, items, subtotalCents, shippingCents, discountCents, promoCode });
  const [row] = await services.db
    .insert(checkouts)
    .values({ ...values, token: generateToken() })
    .returning();
  return row;
}

/** A new pending checkout, or the `reusable` one when it holds the same: a form sent again records nothing. */
export async function recordCheckout(db: Database, reusable: string | null, values: CheckoutValues): Promise<Checkout> {
  const earlier = reusable ? await getCheckout(db, reusable) : null;
  if (earlier && holdsTheSame(earlier, values)) return earlier;
  const [row] = await db
    .insert(checkouts)
    .values({ ...values, token: generateToken() })
    .returning();
  return row;
}

/**
 * A pending checkout of the same kind, customer, items and money (compared as stored: JSON, key order aside);
 * its tax calculation's own id and time may differ, its amounts may not.
 */
function holdsTheSame(checkout: Checkout, values: CheckoutValues): boolean {
  const stored = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const fields = [
    "kind",
    "customer",
    "items",
    "subtotalCents",
    "shippingCents",
    "discountCents",
    "taxCents",
    "totalCents",
    "promoCode",
  ] as const;
  return checkout.status === "pending" && fields.every((field) => isDeepStrictEqual(stored(checkout[field]), stored(values[field])));
}

export async function getCheckout(db: Database, token: string): Promise<Checkout | null> {
  if (!/^[A-Za-z0-9]{10,64}$/.test(token)) return null;
  const [row] = await db.select().from(checkouts).where(eq(checkouts.token, token));
  return row ?? null;
}
