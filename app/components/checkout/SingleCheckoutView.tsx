import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { type ProductCardData, type ProductSummary as CardProduct, SiteLink } from "~/components/shared";
import { CHECKOUT_PRODUCT_SLIDES, ProductCarousel } from "../ProductCarousel";
import type { CustomerErrors } from "~/checkout/customer-fields";
import type { CustomerField } from "~/orders/customer";
import { singleCheckoutTotals, singleShippingRule, type SingleCheckoutTotals } from "~/checkout/single-totals";
import { CustomerFields } from "./CustomerFields";
import { CustomerDetailsMirror } from "./CustomerDetailsMirror";
import { OrderSummary } from "./OrderSummary";
import type { PaymentOption } from "~/services/payments/types";
import type { PendingCheckoutView } from "./PaymentStep";
import { PaymentStep } from "./payment-step-on-demand";

type ProductSummary = { key: string; title: string; model: string; image: string; priceCents: number };
type CardStock = Pick<ProductCardData, "stock" | "soldOut">;

export type SingleCheckoutLoaderView =
  | { step: "no-product" }
  | {
      step: "details";
      product: ProductSummary;
      seasoning: boolean;
      totals: SingleCheckoutTotals;
      shippingKnown: boolean;
      /** The pending checkout's details the server holds for this browser ("Change details"). */
      details: Record<CustomerField, string> | null;
      /** The checkout-area carousel below the form. */
      suggestions: (CardProduct & CardStock)[];
      /** The quantity asked for is more than is in stock (the server's words; the quantity was lowered to what is left). */
      stockMessage: string | null;
      /** The most the quantity offers: 10, or fewer when fewer are left. */
      maxQuantity: number;
    }
  | {
      step: "payment";
      paymentOptions: PaymentOption[];
      checkout: PendingCheckoutView;
      taxNote: string | null;
      /** A line the stock no longer covers (the server's words). */
      stockMessage: string | null;
      /** The product is no longer sold: the checkout cannot be paid (the server's words). */
      unavailableMessage: string | null;
      /** The product's price now differs from the checkout's, which it keeps. */
      priceNotices: string[];
    };

export type SingleCheckoutActionView =
  | { kind: "error"; message: string }
  | {
      kind: "form";
      values: Record<CustomerField, string>;
      errors: CustomerErrors;
      quantity: number;
      promoCode: string;
      promoMessage: string | null;
      shippingError: string | null;
      /** Why no checkout was recorded, shown above the form (the connection's checkout limit). */
      formError: string | null;
      totals: SingleCheckoutTotals;
      shippingKnown: boolean;
      seasoning: boolean;
    };

/**
 * One product, quantity 1 to 10, a promo code and shipping (flat for one
 * item, the carrier's rate for more once the address is known). "Apply"
 * recalculates on the server; "Proceed to Payment" validates and records the
 * checkout. Works without script; with script, a new quantity updates the
 * summary at once (the same pure rules the server applies, see single-totals.ts).
 */
export function SingleCheckoutView({
  title,
  view,
  result,
  path,
}: {
  title: string;
  view: SingleCheckoutLoaderView;
  result: SingleCheckoutActionView | undefined;
  /** This checkout's own path, to start over with the same product and quantity. */
  path: string;
}) {
  const navigation = useNavigation();
  // The quantity picked in the browser since the last server answer (null: the server's own).
  const [picked, setPicked] = useState<{ quantity: number; from: SingleCheckoutTotals } | null>(null);
  // Before the loader's view: a post for a product we do not have lands on a page whose loader has no product either.
  if (result?.kind === "error") {
    return (
      <div className="container checkout">
        <h1>{title}</h1>
        <p className="notice notice--error" role="alert">
          {result.message}
        </p>
      </div>
    );
  }
  if (view.step === "no-product") {
    return (
      <div className="container checkout empty-state">
        <h1>{title}</h1>
        <p className="empty-state__title">Choose a product first.</p>
        <SiteLink className="button button--primary" to="/products/all/all">
          View Products
        </SiteLink>
      </div>
    );
  }
  if (view.step === "payment") {
    const [item] = view.checkout.items;
    const editQuery = new URLSearchParams({ product: item?.productKey ?? "", quantity: String(item?.quantity ?? 1) });
    return (
      <PaymentStep
        title={title}
        checkout={view.checkout}
        taxNote={view.taxNote}
        paymentOptions={view.paymentOptions}
        editPath={`${path}?${editQuery}`}
        stockMessage={view.stockMessage}
        unavailableMessage={view.unavailableMessage}
        priceNotices={view.priceNotices}
      />
    );
  }
  const form = result?.kind === "form" ? result : undefined;
  const serverTotals = form?.totals ?? view.totals;
  const seasoning = form?.seasoning ?? view.seasoning;
  const live = picked && picked.from === serverTotals && picked.quantity !== serverTotals.quantity ? picked.quantity : null;
  const totals =
    live === null
      ? serverTotals
      : singleCheckoutTotals({
          unitPriceCents: serverTotals.unitPriceCents,
          quantity: live,
          promoCode: serverTotals.promoApplied ? serverTotals.promoCode : "",
          seasoning,
          carrierShippingCents: null,
        });
  const rule = singleShippingRule({ seasoning, unitPriceCents: totals.unitPriceCents, quantity: totals.quantity });
  const shippingKnown = live === null ? (form?.shippingKnown ?? view.shippingKnown) : rule.kind !== "carrier";
  const busy = navigation.state === "submitting";
  // After a post the form's answer says all there is to say; before one, the page's own check of the stock.
  const formError = form ? form.formError : view.stockMessage;
  const quantityChoices = Math.max(view.maxQuantity, serverTotals.quantity);
  return (
    <div className="container checkout">
      <h1>{title}</h1>
      <div className="checkout__layout">
        <Form method="post" className="checkout__form" noValidate>
          {formError ? (
            <p className="notice notice--error" role="alert">
              {formError}
            </p>
          ) : null}
          <input type="hidden" name="product" value={view.product.key} />
          <div className="field-row">
            <div className="field">
              <label htmlFor="single-quantity">Quantity</label>
              <select
                id="single-quantity"
                name="quantity"
                defaultValue={String(serverTotals.quantity)}
                key={serverTotals.quantity}
                onChange={(event) => setPicked({ quantity: Number(event.currentTarget.value), from: serverTotals })}
              >
                {Array.from({ length: quantityChoices }, (_, index) => index + 1).map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="promo-code">Promo code</label>
              <input
                id="promo-code"
                name="promoCode"
                defaultValue={form?.promoCode ?? ""}
                autoComplete="off"
                aria-invalid={form?.promoMessage ? true : undefined}
                aria-describedby={form?.promoMessage ? "promo-code-message" : "promo-code-hint"}
              />
              {form?.promoMessage ? (
                <p id="promo-code-message" className="field-error">
                  {form.promoMessage}
                </p>
              ) : totals.promoApplied ? (
                <p id="promo-code-hint" className="field-success">
                  LOVERUB10 applied: 10% off.
                </p>
              ) : (
                <p id="promo-code-hint" className="field-hint">
                  Have a code? Enter it and choose Apply.
                </p>
              )}
            </div>
          </div>
          <button type="submit" name="intent" value="update" className="button">
            Apply
          </button>
          <CustomerFields values={form?.values ?? view.details ?? {}} errors={form?.errors ?? {}} />
          <CustomerDetailsMirror details={view.details} formSelector=".checkout__form" />
          {form?.shippingError ? (
            <p className="notice notice--error" role="alert">
              {form.shippingError}
            </p>
          ) : null}
          <p className="checkout__shipping-note">
            {rule.kind === "flat"
              ? "Shipping: $6.99 flat for one jar."
              : rule.kind === "free"
                ? "Free shipping on orders over $49."
                : "Shipping is the carrier's rate to your address."}
          </p>
          <button type="submit" name="intent" value="pay" className="button button--primary button--block" disabled={busy}>
            Proceed to Payment
          </button>
        </Form>
        <OrderSummary
          lines={[
            {
              key: view.product.key,
              title: view.product.title,
              model: view.product.model,
              image: view.product.image,
              quantity: totals.quantity,
              unitPriceCents: totals.unitPriceCents,
            },
          ]}
          totals={{ ...totals, shippingCents: shippingKnown ? totals.shippingCents : null }}
          shippingNote="Calculated once your address is entered"
        />
      </div>
      <ProductCarousel label="You May Also Like" products={view.suggestions} slidesPerView={CHECKOUT_PRODUCT_SLIDES} />
    </div>
  );
}
