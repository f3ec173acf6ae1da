import { decimalOfCents } from "~/utils/money";
import { PaymentError, type PaymentItem, type StartPaymentInput } from "./types";

/** What the PayPal driver sends to create an order (Orders v2): the server's figures, in PayPal's shape. */

/** The create-order body: one purchase unit for the server's total and its items, tagged with our attempt and checkout. */
export function orderRequest(input: StartPaymentInput, brandName: string | undefined) {
  const { customer } = input;
  return {
    intent: "CAPTURE",
    purchase_units: [
      {
        reference_id: input.checkoutToken,
        custom_id: input.attemptId,
        description: input.description.slice(0, 127),
        amount: orderAmount(input),
        ...(input.items.length > 0 ? { items: input.items.map((item) => orderItem(item, input.currency)) } : {}),
        shipping: {
          name: { full_name: `${customer.firstName} ${customer.lastName}`.trim().slice(0, 300) },
          address: {
            address_line_1: customer.address,
            admin_area_2: customer.city,
            admin_area_1: customer.state,
            postal_code: customer.postalCode,
            country_code: customer.countryCode,
          },
        },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          ...(brandName ? { brand_name: brandName.slice(0, 127) } : {}),
          locale: "en-US",
          shipping_preference: "SET_PROVIDED_ADDRESS",
          user_action: "PAY_NOW",
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
        },
      },
    },
  };
}

/**
 * The total with its breakdown. PayPal refuses (422) a value other than item_total + tax_total + shipping − discount
 * (AMOUNT_MISMATCH), or items that do not add up to item_total (ITEM_TOTAL_MISMATCH): the server's figures are sent
 * as they are, so a checkout whose parts disagree with its total is never charged.
 */
function orderAmount(input: StartPaymentInput) {
  const part = (cents: number) => ({ currency_code: input.currency, value: centsToValue(cents, { allowZero: true }) });
  return {
    currency_code: input.currency,
    value: centsToValue(input.amountCents),
    breakdown: {
      item_total: part(input.subtotalCents),
      shipping: part(input.shippingCents),
      tax_total: part(input.taxCents),
      discount: part(input.discountCents),
    },
  };
}

function orderItem(item: PaymentItem, currency: string) {
  return {
    name: item.title.slice(0, 127),
    sku: item.productKey.slice(0, 127),
    quantity: String(item.quantity),
    unit_amount: { currency_code: currency, value: centsToValue(item.unitPriceCents, { allowZero: true }) },
    category: "PHYSICAL_GOODS",
  };
}

/** 123.45 dollars for 12345 cents, exactly, as PayPal's amount value; 0.00 only with `allowZero` (a part of a breakdown, an item). */
export function centsToValue(cents: number, { allowZero = false } = {}): string {
  if (!Number.isSafeInteger(cents) || cents < (allowZero ? 0 : 1))
    throw new PaymentError(`Cannot charge ${cents} cents with PayPal.`, "paypal");
  return decimalOfCents(cents);
}
