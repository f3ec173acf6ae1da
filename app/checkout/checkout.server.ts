import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import type { CartLine } from "~/cart/cart";
import { priceCart } from "~/cart/cart-view.server";
import type { StoreProduct } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { checkouts, type CheckoutKind, type OrderCustomer, type OrderItem } from "~/db/schema";
import { generateToken } from "~/orders/order-id";
import { MAX_ORDER_TOTAL_CENTS, ORDER_TOO_LARGE_MESSAGE } from "~/pricing/pricing";
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

/** A cart whose total passes MAX_ORDER_TOTAL_CENTS: refused before anything is recorded. */
export class OrderTooLargeError extends Error {
  constructor() {
    super(ORDER_TOO_LARGE_MESSAGE);
  }
}

/**
 * Records a pending checkout for the whole cart, priced from the catalog. `reusable`: the checkout this
 * browser submitted last, given back instead when it is pending and holds exactly the same.
 */
export async function createCartCheckout(
  db: Database,
  cart: readonly CartLine[],
  customer: CustomerInput,
  reusable: string | null = null,
): Promise<Checkout> {
  const priced = await priceCart(db, cart);
  if (priced.lines.length === 0) throw new EmptyCartError();
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
  return recordCheckout(db, reusable, {
    kind: "cart",
    customer: toOrderCustomer(customer),
    items,
    subtotalCents: priced.subtotalCents,
    shippingCents: priced.shippingCents,
    discountCents: 0,
    totalCents: priced.totalCents,
    promoCode: null,
  });
}

/** Records a pending checkout for one product (BUY NOW or the seasoning); `reusable` as for the cart. */
export async function createSingleCheckout(
  db: Database,
  kind: Extract<CheckoutKind, "single" | "seasoning">,
  product: StoreProduct,
  totals: SingleCheckoutTotals,
  customer: CustomerInput,
  reusable: string | null = null,
): Promise<Checkout> {
  return recordCheckout(db, reusable, {
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
    totalCents: totals.totalCents,
    promoCode: totals.promoApplied ? totals.promoCode : null,
  });
}

type CheckoutValues = Omit<typeof checkouts.$inferInsert, "token">;

/** A new pending checkout, or the `reusable` one when it holds the same: a form sent again records nothing. */
async function recordCheckout(db: Database, reusable: string | null, values: CheckoutValues): Promise<Checkout> {
  const earlier = reusable ? await getCheckout(db, reusable) : null;
  if (earlier && holdsTheSame(earlier, values)) return earlier;
  const [row] = await db
    .insert(checkouts)
    .values({ ...values, token: generateToken() })
    .returning();
  return row;
}

/** A pending checkout of the same kind, customer, items and money (compared as stored: JSON, key order aside). */
function holdsTheSame(checkout: Checkout, values: CheckoutValues): boolean {
  const stored = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const fields = ["kind", "customer", "items", "subtotalCents", "shippingCents", "discountCents", "totalCents", "promoCode"] as const;
  return checkout.status === "pending" && fields.every((field) => isDeepStrictEqual(stored(checkout[field]), stored(values[field])));
}

export async function getCheckout(db: Database, token: string): Promise<Checkout | null> {
  if (!/^[A-Za-z0-9]{10,64}$/.test(token)) return null;
  const [row] = await db.select().from(checkouts).where(eq(checkouts.token, token));
  return row ?? null;
}
