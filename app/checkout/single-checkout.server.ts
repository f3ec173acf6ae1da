import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { getProductById, getProductByKey } from "~/catalog/queries.server";
import { checkoutSuggestions } from "./suggestions.server";
import { OWN_SEASONING_ID } from "~/catalog/product";
import type { StoreProduct } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { INVALID_PROMO_MESSAGE } from "~/pricing/pricing";
import { warehouseAddress } from "~/services/shipping/index.server";
import type { Parcel } from "~/services/shipping/types";
import { parseForm, readForm, unreadableForm } from "~/utils/forms.server";
import { productParcel, seasoningParcel, type ProductDimensions } from "~/services/shipping/parcel";
import { specMap } from "~/catalog/variations";
import { PROMO_ALREADY_USED_MESSAGE, promoAlreadyRedeemed } from "~/pricing/promo-redemptions.server";
import {
  CheckoutTaxError,
  getCheckout,
  OrderTooLargeError,
  type PricedCheckout,
  type UntaxedCheckout,
  recordCheckout,
  singleCheckoutValues,
  taxed,
} from "./checkout.server";
import { taxNoteOf } from "~/tax/tax-note.server";
import { checkoutLineNotices } from "./checkout-lines.server";
import { parseCustomer, type CustomerInput } from "./customer.server";
import { quoteCarrierShipping, SHIPPING_FAILED_MESSAGE, SHIPPING_RATE_LIMITED_MESSAGE } from "./shipping-quote.server";
import { checkoutPagePath } from "./paths";
import { RATE_LIMITS, retryAfterSeconds, type RateLimitRule } from "~/security/rate-limit.server";
import { CHECKOUT_RATE_LIMITED_MESSAGE, TAX_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { detailsCookieHeader, lastCheckoutToken, pendingCustomerDetails } from "./details-cookie.server";
import { clampSingleQuantity, singleCheckoutTotals, singleShippingRule } from "./single-totals";
import {
  buyableWithin,
  checkCartQuantities,
  checkoutStockMessage,
  quantityMessage,
  stockLevels,
  withCardStock,
} from "~/stock/storefront-stock.server";
import { SINGLE_PRODUCT_MAX_QUANTITY } from "~/pricing/pricing";

export { SHIPPING_FAILED_MESSAGE };

type Kind = "single" | "seasoning";

const orderFields = {
  product: z.string().max(120).catch(""),
  quantity: z.coerce.number().catch(1),
  promoCode: z
    .string()
    .catch("")
    .transform((code) => code.slice(0, 40)),
};

/** Apply (recalculate the totals) or Proceed to Payment; the customer fields are read by parseCustomer. */
const singleCheckoutForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("update"), ...orderFields }),
  z.object({ intent: z.literal("pay"), ...orderFields }),
]);

/**
 * The single-product checkouts (BUY NOW and the seasoning) share this logic;
 * their routes only say which product they sell.
 */
async function findProduct(db: Database, kind: Kind, key: string | null): Promise<StoreProduct | null> {
  if (kind === "seasoning") return getProductById(db, OWN_SEASONING_ID);
  return key ? getProductByKey(db, key) : null;
}

export async function singleCheckoutLoader(store: StoreRuntime, request: Request, kind: Kind) {
  const { db } = store;
  const url = new URL(request.url);
  const token = url.searchParams.get("checkout");
  if (token) {
    const checkout = await getCheckout(db, token);
    if (checkout?.status === "paid" && checkout.orderId) throw redirect(`/order-status/${checkout.orderId}`);
    if (checkout && checkout.kind === kind)
      return {
        step: "payment" as const,
        checkout,
        taxNote: taxNoteOf(checkout),
        paymentOptions: store.payments.options(),
        // Checked again on every view of the payment step: the stock may have gone since it was recorded, the product been hidden or repriced.
        stockMessage: await checkoutStockMessage(db, checkout, { afterRefusal: url.searchParams.get("payment_error") === "stock" }),
        ...(await checkoutLineNotices(db, checkout, { afterRefusal: url.searchParams.get("payment_error") === "product" })),
      };
  }
  const product = await findProduct(db, kind, url.searchParams.get("product"));
  if (!product) return { step: "no-product" as const };
  const asked = clampSingleQuantity(Number(url.searchParams.get("quantity") ?? "1"));
  const [details, suggestions] = await Promise.all([pendingCustomerDetails(store, request), checkoutSuggestions(db)]);
  // One read of the stock for the product and the carousel's cards; more than is left is said, and the quantity lowered to it.
  const levels = await stockLevels(
    db,
    [product, ...suggestions].map((shown) => shown.key),
  );
  const stockMessage = quantityMessage(levels, [{ productKey: product.key, title: product.title, quantity: asked }]);
  const maxQuantity = buyableWithin(levels, product.key, SINGLE_PRODUCT_MAX_QUANTITY);
  const quantity = Math.min(asked, maxQuantity);
  const seasoning = isSeasoning(product);
  const totals = singleCheckoutTotals({
    unitPriceCents: product.priceCents,
    quantity,
    promoCode: "",
    seasoning,
    carrierShippingCents: null,
  });
  const shippingKnown = singleShippingRule({ seasoning, unitPriceCents: product.priceCents, quantity }).kind !== "carrier";
  return {
    step: "details" as const,
    product: summary(product),
    seasoning,
    totals,
    shippingKnown,
    details,
    suggestions: withCardStock(suggestions, levels),
    stockMessage,
    maxQuantity,
  };
}

export async function singleCheckoutAction(store: StoreRuntime, request: Request, kind: Kind, clientAddress: string) {
  const { db } = store;
  const fields = await readForm(request, store.config);
  const order = parseForm(singleCheckoutForm, fields);
  // Every field but the intent falls back to a default, and an unknown intent throws a 400 already.
  if (!order.ok) throw unreadableForm();
  const product = await findProduct(db, kind, order.data.product);
  if (!product) return data({ kind: "error" as const, message: "This product is no longer available." }, { status: 404 });

  const quantity = clampSingleQuantity(order.data.quantity);
  const promoCode = order.data.promoCode;
  const parsed = parseCustomer(fields);
  const wantsPayment = order.data.intent === "pay";
  // No checkout for more than is in stock: said before any carrier quote or tax calculation is asked for.
  const stock = await checkCartQuantities(db, [{ productKey: product.key, title: product.title, quantity }]);
  const stockRefused = !stock.ok && wantsPayment;

  const seasoning = isSeasoning(product);
  const rule = singleShippingRule({ seasoning, unitPriceCents: product.priceCents, quantity });
  let carrierShippingCents: number | null = null;
  let shippingError: string | null = null;
  let retryAfterMs: number | null = null;
  if (rule.kind === "carrier" && parsed.ok && !stockRefused) {
    const parcel = seasoning ? seasoningParcel(quantity) : productParcel(productDimensions(product), quantity);
    const quote = await quoteShipping(store, clientAddress, parsed.customer, parcel);
    carrierShippingCents = quote.status === "quoted" ? quote.quote.amountCents : 0;
    if (quote.status === "failed") shippingError = SHIPPING_FAILED_MESSAGE;
    if (quote.status === "rate-limited") {
      shippingError = SHIPPING_RATE_LIMITED_MESSAGE;
      retryAfterMs = quote.retryAfterMs;
    }
  }
  let totals = singleCheckoutTotals({ unitPriceCents: product.priceCents, quantity, promoCode, seasoning, carrierShippingCents });
  let promoMessage = promoCode.trim() && !totals.promoApplied ? INVALID_PROMO_MESSAGE : null;
  // LOVERUB10 is for the first purchase: once per customer email, said before payment.
  const email = parsed.ok ? parsed.customer.email : (parsed.values.email ?? "");
  if (totals.promoApplied && email && (await promoAlreadyRedeemed(db, totals.promoCode, email))) {
    promoMessage = PROMO_ALREADY_USED_MESSAGE;
    totals = singleCheckoutTotals({ unitPriceCents: product.priceCents, quantity, promoCode: "", seasoning, carrierShippingCents });
  }
  const shippingKnown = rule.kind !== "carrier" || carrierShippingCents !== null;
  // With the address known (and shipping priced), the tax is worked out: shown on Apply, recorded on Proceed to Payment.
  const untaxed =
    parsed.ok && shippingKnown && !shippingError && !stockRefused ? singleCheckoutValues(kind, product, totals, parsed.customer) : null;
  // Each calculation may cost a provider call, so each counts against a limit: Proceed to Payment's the checkouts', Apply's its own.
  const limit = wantsPayment
    ? { rule: RATE_LIMITS.checkoutCreate, message: CHECKOUT_RATE_LIMITED_MESSAGE }
    : { rule: RATE_LIMITS.taxQuote, message: TAX_RATE_LIMITED_MESSAGE };
  const { priced, refusal } = untaxed ? await taxOf(store, clientAddress, untaxed, limit) : { priced: null, refusal: null };
  const answer = {
    kind: "form" as const,
    values: parsed.values,
    errors: wantsPayment && !parsed.ok ? parsed.errors : {},
    quantity,
    promoCode,
    promoMessage,
    shippingError,
    // With the address known, the totals carry its tax, and the total includes it.
    totals: priced ? { ...totals, taxCents: priced.taxCents, taxNote: taxNoteOf(priced), totalCents: priced.totalCents } : totals,
    shippingKnown,
    seasoning,
    formError: refusal?.message ?? (stock.ok ? null : stock.message),
  };
  if (stockRefused) return data(answer, { status: 409 });
  if (retryAfterMs !== null) return data(answer, { status: 429, headers: { "Retry-After": String(retryAfterSeconds(retryAfterMs)) } });
  if (refusal) {
    const headers: Record<string, string> = refusal.retryAfterMs ? { "Retry-After": String(retryAfterSeconds(refusal.retryAfterMs)) } : {};
    return data(answer, { status: refusal.status, headers });
  }
  if (!wantsPayment || !parsed.ok || shippingError || promoMessage === PROMO_ALREADY_USED_MESSAGE || !priced)
    return data(answer, { status: wantsPayment ? 400 : 200 });

  const lastCheckout = await lastCheckoutToken(store, request);
  const checkout = await recordCheckout(db, lastCheckout, priced);
  return redirect(checkoutPagePath(kind, checkout.token), {
    headers: { "Set-Cookie": await detailsCookieHeader(store, request, checkout.token) },
  });
}

type TaxRefusal = { message: string; status: number; retryAfterMs?: number };

/** The checkout priced with its tax, or why it could not be (the connection's limit, the address, the provider, the size). */
async function taxOf(
  store: StoreRuntime,
  clientAddress: string,
  untaxed: UntaxedCheckout,
  limit: { rule: RateLimitRule; message: string },
): Promise<{ priced: PricedCheckout; refusal: null } | { priced: null; refusal: TaxRefusal }> {
  const allowed = await store.rateLimiter.hit(limit.rule, clientAddress);
  if (!allowed.allowed) return { priced: null, refusal: { message: limit.message, status: 429, retryAfterMs: allowed.retryAfterMs } };
  try {
    return { priced: await taxed(store, untaxed), refusal: null };
  } catch (error) {
    if (error instanceof CheckoutTaxError)
      return { priced: null, refusal: { message: error.message, status: error.reason === "address" ? 400 : 503 } };
    if (error instanceof OrderTooLargeError) return { priced: null, refusal: { message: error.message, status: 400 } };
    throw error;
  }
}

/** The seasoning sold through BUY NOW too (its key typed by hand) ships as the seasoning. */
function isSeasoning(product: StoreProduct): boolean {
  return product.id === OWN_SEASONING_ID;
}

function productDimensions(product: StoreProduct): ProductDimensions {
  const specs = specMap(product.specifications);
  return { Width: specs.get("Width"), Depth: specs.get("Depth"), Height: specs.get("Height"), Weight: specs.get("Weight") };
}

/** The carrier's rate for a parcel to this address (quoted, failed or rate-limited). */
function quoteShipping(store: StoreRuntime, clientAddress: string, customer: CustomerInput, parcel: Parcel) {
  return quoteCarrierShipping(
    store.rateLimiter,
    clientAddress,
    {
      from: warehouseAddress(store.config),
      to: {
        name: `${customer.firstName} ${customer.lastName}`,
        street1: customer.address,
        city: customer.city,
        state: customer.state,
        zip: customer.postalCode,
        country: "US",
      },
      parcel,
    },
    store.shippingRates,
  );
}

function summary(product: StoreProduct) {
  return {
    key: product.key,
    id: product.id,
    title: product.title,
    model: product.model,
    image: product.image,
    priceCents: product.priceCents,
  };
}
