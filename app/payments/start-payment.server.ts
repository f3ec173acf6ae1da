import { CheckoutTaxError, OrderTooLargeError, repriceCheckout, type Checkout } from "~/checkout/checkout.server";
import { unavailableCheckoutLines, unavailableRefusal } from "~/checkout/checkout-lines.server";
import { publicBaseUrl } from "~/config.server";
import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { taxIsStale } from "~/tax/checkout-tax.server";
import { TAX_REPRICED_MESSAGE } from "~/tax/messages";
import { holdCheckoutStock } from "~/stock/stock-holds.server";
import { shortageMessage } from "~/stock/stock.server";
import { stockOuts } from "~/observability/metrics.server";
import { getProductByKey } from "~/catalog/queries.server";
import { PROMO_ALREADY_USED_MESSAGE, reservePromo } from "~/pricing/promo-redemptions.server";
import {
  PAYMENT_CURRENCY,
  PaymentError,
  type PaymentFlow,
  type PaymentItem,
  type PaymentMethod,
  type PaymentProviderId,
  type StartedPayment,
} from "~/services/payments/types";
import { paymentCancelPath, paymentReturnPath } from "./paths";
import { createAttempt, markAttemptDeclined, setAttemptReference } from "./attempts.server";
import { logError } from "~/observability/logger.server";

export type StartPaymentResult =
  | { status: "started"; attemptId: string; provider: PaymentProviderId; payment: StartedPayment }
  | { status: "already-paid"; orderId: string }
  | { status: "unavailable" }
  /** The checkout's first-purchase code is used, or held by another checkout of the same email. */
  | { status: "promo-used"; message: string }
  /** Its tax had to be calculated again and the total changed: the new checkout is shown before anyone pays it. */
  | { status: "repriced"; checkout: Checkout; message: string }
  /** The tax could not be calculated again (the provider away, or the address refused): nothing was started. */
  | { status: "tax-failed"; message: string }
  /** A line wants more than is in stock now: nothing was held or started. */
  | { status: "out-of-stock"; message: string }
  /** A line's product is no longer sold (the merchant hid it since): nothing was held or started. */
  | { status: "product-unavailable"; message: string }
  | { status: "failed"; message: string };

/** The return page of an attempt; providers send the shopper back here. */
export function paymentReturnUrl(baseUrl: string, method: PaymentMethod, checkoutToken: string, attemptId: string): string {
  return `${baseUrl}${paymentReturnPath(method, checkoutToken, attemptId)}`;
}

/**
 * Starts paying a pending checkout by one method, for the checkout's own
 * server-computed total: records an attempt bound to this checkout, method and
 * amount, then asks the provider to start the payment with the attempt's id as
 * idempotency key and metadata. Nothing the browser sends reaches the amount.
 * `flow` "embedded" is for a provider widget on our page (e.g. Stripe's Payment
 * Element); the default "redirect" works without script.
 */
export async function startPayment(
  store: Pick<StoreRuntime, "db" | "config" | "jobs" | "taxService" | "payments">,
  { checkout: asked, method, flow = "redirect" }: { checkout: Checkout; method: PaymentMethod; flow?: PaymentFlow },
): Promise<StartPaymentResult> {
  const { db, config } = store;
  if (asked.status === "paid" && asked.orderId) return { status: "already-paid", orderId: asked.orderId };
  const provider = store.payments.forMethod(method);
  if (!provider) return { status: "unavailable" };
  // The checkout keeps its prices (its total is what is charged below), but a product no longer sold is not sold.
  const unavailable = await unavailableCheckoutLines(db, asked);
  if (unavailable.length > 0) return { status: "product-unavailable", message: unavailableRefusal(unavailable) };
  const fresh = await freshlyTaxed(store, asked);
  if (fresh.status !== "fresh") return fresh;
  const { checkout } = fresh;
  // The units are held for this checkout before any money is asked for: the last one is never sold twice.
  const held = await holdCheckoutStock(store, checkout);
  if (!held.ok) {
    stockOuts.inc({ at: "hold" }, held.shortages.length);
    return { status: "out-of-stock", message: shortageMessage(held.shortages) };
  }

  if (checkout.promoCode) {
    const held = await reservePromo(db, { code: checkout.promoCode, email: checkout.customer.email, checkoutToken: checkout.token });
    if (!held) return { status: "promo-used", message: PROMO_ALREADY_USED_MESSAGE };
  }

  const baseUrl = publicBaseUrl(config);
  const attempt = await createAttempt(store, {
    checkoutToken: checkout.token,
    method,
    provider: provider.id,
    amountCents: checkout.totalCents,
  });
  try {
    const payment = await provider.startPayment({
      attemptId: attempt.id,
      checkoutToken: checkout.token,
      amountCents: checkout.totalCents,
      subtotalCents: checkout.subtotalCents,
      shippingCents: checkout.shippingCents,
      discountCents: checkout.discountCents,
      taxCents: checkout.taxCents,
      currency: PAYMENT_CURRENCY,
      description: `Order of ${checkout.items.length} item(s)`,
      items: await paymentItems(db, checkout, baseUrl),
      customer: {
        firstName: checkout.customer.firstName,
        lastName: checkout.customer.lastName,
        email: checkout.customer.email,
        phone: checkout.customer.phone,
        address: checkout.customer.address,
        city: checkout.customer.city,
        state: checkout.customer.state,
        postalCode: checkout.customer.postalCode,
        countryCode: "US",
      },
      returnUrl: paymentReturnUrl(baseUrl, method, checkout.token, attempt.id),
      cancelUrl:
        method === "affirm"
          ? `${baseUrl}/checkout-canceled-affirm?${new URLSearchParams({ checkout_token: checkout.token, attempt: attempt.id })}`
          : `${baseUrl}${paymentCancelPath(checkout.token, attempt.id)}`,
      flow,
    });
    await setAttemptReference(db, attempt.id, payment.reference);
    return { status: "started", attemptId: attempt.id, provider: provider.id, payment };
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    logError(`Payment could not be started with ${provider.id}`, error);
    await markAttemptDeclined(db, attempt.id, error.message);
    return { status: "failed", message: "An unexpected error occurred." };
  }
}

/**
 * The checkout to pay, its tax current: one without tax, or whose calculation is about to expire, is
 * priced again first. A new total is shown to the shopper before it is paid; the same total is paid at once.
 */
async function freshlyTaxed(
  store: Pick<StoreRuntime, "db" | "taxService">,
  checkout: Checkout,
): Promise<{ status: "fresh"; checkout: Checkout } | Extract<StartPaymentResult, { status: "repriced" | "tax-failed" }>> {
  if (!taxIsStale(checkout)) return { status: "fresh", checkout };
  try {
    const repriced = await repriceCheckout(store, checkout);
    if (repriced.totalCents === checkout.totalCents) return { status: "fresh", checkout: repriced };
    return { status: "repriced", checkout: repriced, message: TAX_REPRICED_MESSAGE };
  } catch (error) {
    if (error instanceof CheckoutTaxError || error instanceof OrderTooLargeError) return { status: "tax-failed", message: error.message };
    throw error;
  }
}

async function paymentItems(db: Database, checkout: Checkout, baseUrl: string): Promise<PaymentItem[]> {
  return Promise.all(
    checkout.items.map(async (item) => {
      const product = await getProductByKey(db, item.productKey);
      return {
        productKey: item.productKey,
        title: item.title,
        model: item.model,
        brand: item.brand,
        imageUrl: absoluteUrl(baseUrl, item.imageUrl),
        productUrl: `${baseUrl}/product/${encodeURIComponent(item.productKey)}`,
        categories: product?.categories.filter((name) => name !== "Home") ?? [],
        unitPriceCents: item.unitPriceCents,
        quantity: item.quantity,
      };
    }),
  );
}

function absoluteUrl(baseUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith("/") ? "" : "/"}${path}`;
}
