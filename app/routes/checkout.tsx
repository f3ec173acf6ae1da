import { SiteLink } from "~/components/shared";
import {
  data,
  redirect,
  readCart,
  priceCart,
  createCartCheckout,
  EmptyCartError,
  CheckoutTaxError,
  getCheckout,
  taxNoteOf,
  OrderTooLargeError,
  parseCustomer,
  detailsCookieHeader,
  pendingCustomerDetails,
  checkoutSuggestions,
  readForm,
  RATE_LIMITS,
  retryAfterSeconds,
  lastCheckoutToken,
  stockLevels,
  cartShortageMessage,
  checkCartQuantities,
  checkoutStockMessage,
  withCardStock,
  checkCartAvailable,
  unavailableLinesMessage,
  UnavailableProductError,
  checkoutLineNotices,
} from "~/server-api";
import { CHECKOUT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CustomerDetailsMirror } from "~/components/checkout/CustomerDetailsMirror";
import { CHECKOUT_PRODUCT_SLIDES, ProductCarousel } from "~/components/ProductCarousel";
import { CustomerFields } from "~/components/checkout/CustomerFields";
import { OrderSummary } from "~/components/checkout/OrderSummary";
import { PaymentStep } from "~/components/checkout/payment-step-on-demand";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Checkout" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const db = context.store.db;
  const search = new URL(request.url).searchParams;
  const token = search.get("checkout");
  if (token) {
    const checkout = await getCheckout(db, token);
    if (checkout?.status === "paid" && checkout.orderId) throw redirect(`/order-status/${checkout.orderId}`);
    if (checkout?.kind === "cart") {
      return {
        step: "payment" as const,
        checkout,
        taxNote: taxNoteOf(checkout),
        paymentOptions: context.store.payments.options(),
        // Checked again on every view: the stock may have gone since the checkout was recorded, a product been hidden or repriced.
        stockMessage: await checkoutStockMessage(db, checkout, { afterRefusal: search.get("payment_error") === "stock" }),
        ...(await checkoutLineNotices(db, checkout, { afterRefusal: search.get("payment_error") === "product" })),
      };
    }
  }
  const cart = await priceCart(db, await readCart(context.store, request));
  const [details, suggestions] = await Promise.all([pendingCustomerDetails(context.store, request), checkoutSuggestions(db)]);
  // One read of the stock for the cart's lines and the carousel's cards.
  const levels = await stockLevels(db, [...cart.lines.map((line) => line.productKey), ...suggestions.map((product) => product.key)]);
  return {
    step: "details" as const,
    cart,
    details,
    suggestions: withCardStock(suggestions, levels),
    stockMessage: [unavailableLinesMessage(cart.unavailable), cartShortageMessage(cart.lines, levels)].filter(Boolean).join(" ") || null,
  };
}

const EMPTY_CART_MESSAGE = "Your cart is empty. Please add some products.";

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseCustomer(await readForm(request, context.store.config));
  const cart = await readCart(context.store, request);
  // With nothing to buy, the page shows the empty cart: say so there rather than in fields it does not show.
  if (cart.length === 0) return data({ errors: {}, values: parsed.values, formError: EMPTY_CART_MESSAGE }, { status: 400 });
  if (!parsed.ok) return data({ errors: parsed.errors, values: parsed.values, formError: null }, { status: 400 });
  // No checkout of a product no longer sold, nor of more than is in stock: the shopper is told which line, before any limit is spent or tax asked for.
  const available = await checkCartAvailable(context.store.db, cart);
  if (!available.ok) return data({ errors: {}, values: parsed.values, formError: available.message }, { status: 409 });
  const stock = await checkCartQuantities(context.store.db, cart);
  if (!stock.ok) return data({ errors: {}, values: parsed.values, formError: stock.message }, { status: 409 });
  const limit = await context.store.rateLimiter.hit(RATE_LIMITS.checkoutCreate, context.clientAddress);
  if (!limit.allowed) {
    const headers = { "Retry-After": String(retryAfterSeconds(limit.retryAfterMs)) };
    return data({ errors: {}, values: parsed.values, formError: CHECKOUT_RATE_LIMITED_MESSAGE }, { status: 429, headers });
  }
  try {
    const lastCheckout = await lastCheckoutToken(context.store, request);
    const checkout = await createCartCheckout(context.store, cart, parsed.customer, lastCheckout);
    return redirect(`/checkout?checkout=${checkout.token}`, {
      headers: { "Set-Cookie": await detailsCookieHeader(context.store, request, checkout.token) },
    });
  } catch (error) {
    if (error instanceof EmptyCartError) return data({ errors: {}, values: parsed.values, formError: EMPTY_CART_MESSAGE }, { status: 400 });
    if (error instanceof UnavailableProductError)
      return data({ errors: {}, values: parsed.values, formError: error.message }, { status: 409 });
    if (error instanceof OrderTooLargeError) return data({ errors: {}, values: parsed.values, formError: error.message }, { status: 400 });
    if (error instanceof CheckoutTaxError) {
      return data({ errors: {}, values: parsed.values, formError: error.message }, { status: error.reason === "address" ? 400 : 503 });
    }
    throw error;
  }
}

export default function CheckoutPage() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();

  if (view.step === "payment") {
    return (
      <PaymentStep
        title="Checkout"
        checkout={view.checkout}
        taxNote={view.taxNote}
        paymentOptions={view.paymentOptions}
        editPath="/checkout"
        stockMessage={view.stockMessage}
        unavailableMessage={view.unavailableMessage}
        priceNotices={view.priceNotices}
      />
    );
  }

  const { cart } = view;
  if (cart.lines.length === 0) {
    return (
      <div className="container checkout empty-state">
        <h1>Checkout</h1>
        {result?.formError || view.stockMessage ? (
          <p className="notice notice--error" role="alert">
            {result?.formError ?? view.stockMessage}
          </p>
        ) : null}
        <p className="empty-state__title">Your cart is empty.</p>
        <SiteLink className="button button--primary" to="/products/all/all">
          View Products
        </SiteLink>
      </div>
    );
  }
  return (
    <div className="container checkout">
      <h1>Checkout</h1>
      <div className="checkout__layout">
        <Form method="post" className="checkout__form" noValidate>
          {result?.formError ? (
            <p className="notice notice--error" role="alert">
              {result.formError}
            </p>
          ) : view.stockMessage ? (
            <p className="notice notice--error" role="alert">
              {view.stockMessage} <SiteLink to="/cart">Change your cart</SiteLink>
            </p>
          ) : null}
          <CustomerFields values={result?.values ?? view.details ?? {}} errors={result?.errors ?? {}} />
          <CustomerDetailsMirror details={view.details} formSelector=".checkout__form" />
          <p className="checkout__shipping-note">
            Shipping: {cart.shippingCents === 0 ? "Free (orders over $49)" : "$6.95 (free on orders over $49)"}
          </p>
          <button type="submit" className="button button--primary button--block" disabled={navigation.state === "submitting"}>
            Proceed to Payment
          </button>
        </Form>
        <OrderSummary
          lines={cart.lines.map((line) => ({
            key: `${line.position}`,
            title: line.title,
            model: line.model,
            image: line.image,
            quantity: line.quantity,
            unitPriceCents: line.unitPriceCents,
          }))}
          totals={cart}
        />
      </div>
      <ProductCarousel label="You May Also Like" products={view.suggestions} slidesPerView={CHECKOUT_PRODUCT_SLIDES} />
    </div>
  );
}
