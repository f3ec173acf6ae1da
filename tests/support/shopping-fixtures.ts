import { getProductByKey } from "~/catalog/queries.server";
import { recordCheckout, singleCheckoutValues, taxed, toOrderCustomer } from "~/checkout/checkout.server";
import type { Database } from "~/db/database.server";
import type { CustomerInput } from "~/checkout/customer.server";
import type { orders, products } from "~/db/schema";
import type { PaymentMethod, StartPaymentInput } from "~/services/payments/types";
import { storeOf } from "./test-runtime";

/**
 * The shopper, products, orders and payments the tests buy and sell with. Each
 * helper takes the values a test is about and fills the rest with plain,
 * valid placeholders that no test asserts on.
 */

type ProductRow = typeof products.$inferInsert;
type OrderRow = typeof orders.$inferInsert;

/** The checkout form's customer: Ada Lovelace in Austin, TX. */
export function checkoutCustomer({ email = "ada@example.com" }: { email?: string } = {}): CustomerInput {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    phone: "5125550100",
    address: "1 Main St",
    city: "Austin",
    state: "TX",
    postalCode: "78701",
  };
}

let productsMade = 0;

/**
 * A catalogue row for `key` (`{brand}-{Id}`) at `priceCents`. Products come in
 * catalogue order in the order they are made.
 */
export function testProduct(
  key: string,
  priceCents: number,
  {
    categories = ["Home", "Grills"],
    specifications = [],
    image = "/images/placeholder.svg",
  }: Pick<Partial<ProductRow>, "categories" | "specifications" | "image"> = {},
): ProductRow {
  productsMade += 1;
  const [brand, ...id] = key.split("-");
  return {
    key,
    sourceId: id.join("-"),
    brand,
    model: `M-${productsMade}`,
    title: `Test product ${key}`,
    priceCents,
    image,
    otherImages: [],
    categories,
    specifications,
    description: "A test product.",
    imageCount: 1,
    position: productsMade,
  };
}

let ordersMade = 0;

/**
 * A paid order of two $49.00 Blaze grills (status Approved unless given), with
 * an order id and payment reference of its own; `name` and `email` are the
 * customer's.
 */
export function testOrder({
  name = "Ada Lovelace",
  email,
  ...columns
}: Partial<OrderRow> & { name?: string; email?: string } = {}): OrderRow {
  ordersMade += 1;
  const [firstName = "", lastName = ""] = name.split(" ");
  return {
    orderId: `T${String(ordersMade).padStart(9, "0")}`,
    customer: { ...toOrderCustomer({ ...checkoutCustomer({ email }), firstName, lastName }), name },
    items: [
      {
        productKey: "blaze-1",
        title: "Blaze grill",
        model: "BLZ-1",
        brand: "blaze",
        imageUrl: "/images/placeholder.svg",
        unitPriceCents: 4900,
        quantity: 2,
      },
    ],
    subtotalCents: 9800,
    shippingCents: 0,
    totalCents: 9800,
    paymentMethod: "stripe",
    paymentProvider: "test",
    paymentReference: `pay_test_${ordersMade}`,
    ...columns,
  };
}

/**
 * What the store hands a provider's driver to start a payment of `amountCents`
 * by `method`: Grace Hopper's, with nothing itemised unless `items` are given,
 * and the whole amount its subtotal (no shipping, discount or tax) unless said.
 * The return and cancel addresses are the store's at `origin`.
 */
export function paymentToStart({
  method,
  attemptId,
  checkoutToken,
  amountCents,
  origin = "http://store.test",
  ...details
}: Pick<StartPaymentInput, "attemptId" | "checkoutToken" | "amountCents"> &
  Partial<StartPaymentInput> & { method: PaymentMethod; origin?: string }): StartPaymentInput {
  return {
    attemptId,
    checkoutToken,
    amountCents,
    subtotalCents: amountCents,
    shippingCents: 0,
    discountCents: 0,
    taxCents: 0,
    currency: "USD",
    description: "Order of 2 item(s)",
    items: [],
    customer: {
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@example.com",
      phone: "5125550100",
      address: "200 Congress Ave",
      city: "Austin",
      state: "TX",
      postalCode: "78701",
      countryCode: "US",
    },
    returnUrl: `${origin}/checkout-authorized/${method}?checkout_token=${checkoutToken}&attempt=${attemptId}`,
    cancelUrl: `${origin}/checkout?checkout=${checkoutToken}`,
    flow: "redirect",
    ...details,
  };
}

/** The LOVE RUB product's key: insert `testProduct(LOVE_RUB_KEY, 1599)` before `loveRubCheckout`. */
export const LOVE_RUB_KEY = "custom_product-LOVE-RUB-001";

/** A pending LOVE RUB checkout with LOVERUB10 applied (one jar: $15.99 − $1.60 + $6.99 shipping). */
export async function loveRubCheckout(db: Database, email: string) {
  const rub = await getProductByKey(db, LOVE_RUB_KEY);
  if (!rub) throw new Error(`insert ${LOVE_RUB_KEY} first`);
  const values = singleCheckoutValues(
    "seasoning",
    rub,
    {
      quantity: 1,
      unitPriceCents: 1599,
      subtotalCents: 1599,
      promoCode: "LOVERUB10",
      promoApplied: true,
      discountCents: 160,
      shippingCents: 699,
      totalCents: 1599 - 160 + 699,
    },
    checkoutCustomer({ email }),
  );
  return recordCheckout(db, null, await taxed(storeOf(db), values));
}
