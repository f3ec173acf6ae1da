import { Form, useSearchParams } from "@remix-run/react";
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from "react";
import { PAYMENT_CANCELLED_MESSAGE, PAYMENT_STOCK_CHANGED_MESSAGE } from "~/payments/messages";
import { PROMO_ALREADY_USED_MESSAGE } from "~/pricing/promo-messages";
import { PAYMENT_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { TAX_REPRICED_MESSAGE, TAX_UNAVAILABLE_MESSAGE } from "~/tax/messages";
import type { PaymentOption } from "~/services/payments/types";
import { formatUsd, useHydrated, useStore } from "~/components/shared";

/** PayPal's buttons and SDK load only when the shopper chooses PayPal (with script, and only when PayPal is configured). */
const PayPalButtons = lazy(() => import("./payments/PayPalButtons"));
import { StripeCardEntry } from "./payments/StripeCardEntry";

/**
 * The payment choices, shown once the contact form is valid. Each is a POST
 * that starts the payment on the server for the checkout's server-computed
 * total (the browser never sends an amount); provider widgets, where a method
 * has one, enhance this form once script runs.
 */
export function PaymentMethods({
  checkoutToken,
  totalCents,
  options,
  stockMessage = null,
}: {
  checkoutToken: string;
  totalCents: number;
  options: PaymentOption[];
  /** Which lines are no longer sold or the stock no longer covers: the server checked the checkout for this view (never text from the address). */
  stockMessage?: string | null;
}) {
  const testOnly = options.length > 0 && options.every((option) => option.isTest);
  const [searchParams] = useSearchParams();
  return (
    <section className="payment-methods" aria-labelledby="payment-heading">
      <h2 id="payment-heading">Payment</h2>
      {testOnly ? (
        <p className="notice notice--info">
          Test mode: no payment provider is configured, so each method opens our own test payment page. No money moves.
        </p>
      ) : null}
      {stockMessage ? (
        <p className="notice notice--error" role="alert">
          {stockMessage}
        </p>
      ) : searchParams.get("payment_error") === "stock" ? (
        <p className="notice notice--error" role="alert">
          {PAYMENT_STOCK_CHANGED_MESSAGE}
        </p>
      ) : searchParams.get("payment_error") === "rate-limited" ? (
        <p className="notice notice--error" role="alert">
          {PAYMENT_RATE_LIMITED_MESSAGE}
        </p>
      ) : searchParams.get("payment_error") === "promo-used" ? (
        <p className="notice notice--error" role="alert">
          {PROMO_ALREADY_USED_MESSAGE}
        </p>
      ) : searchParams.get("payment_error") === "repriced" ? (
        <p className="notice notice--error" role="alert">
          {TAX_REPRICED_MESSAGE}
        </p>
      ) : searchParams.get("payment_error") === "tax" ? (
        <p className="notice notice--error" role="alert">
          {TAX_UNAVAILABLE_MESSAGE}
        </p>
      ) : searchParams.get("payment_cancelled") !== null ? (
        <p className="notice notice--info" role="status">
          {PAYMENT_CANCELLED_MESSAGE}
        </p>
      ) : searchParams.has("payment_error") ? (
        <p className="notice notice--error" role="alert">
          Payment failed: An unexpected error occurred.
        </p>
      ) : null}
      <p>
        Amount to pay: <strong data-testid="payment-amount">{formatUsd(totalCents)}</strong>
      </p>
      {options.length === 0 ? (
        <p className="notice notice--error" role="alert">
          Online payment is not available right now. Please call us to place your order.
        </p>
      ) : (
        <ul>
          {options.map((option, index) => {
            const className = index === 0 ? "button button--primary button--block" : "button button--block";
            const descriptionId = `payment-${option.method}-description`;
            const form = (onSubmit?: (event: FormEvent<HTMLFormElement>) => void) => (
              <Form discover="none" method="post" action="/payments/start" onSubmit={onSubmit}>
                <input type="hidden" name="checkout" value={checkoutToken} />
                <input type="hidden" name="method" value={option.method} />
                <button type="submit" className={className} aria-describedby={descriptionId}>
                  {option.label}
                  {option.isTest && !testOnly ? " (test page, no money moves)" : ""}
                </button>
              </Form>
            );
            return (
              <li key={option.method}>
                {option.provider === "paypal" ? (
                  <PayPalEntry checkoutToken={checkoutToken} form={form} />
                ) : option.provider === "stripe" ? (
                  <StripeCardEntry checkoutToken={checkoutToken} label={option.label} className={className} describedBy={descriptionId} />
                ) : (
                  form()
                )}
                <p id={descriptionId} className="payment-methods__description">
                  {option.description}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The PayPal entry: the plain form (PayPal's hosted page). With script and PayPal configured, pressing
 * it chooses PayPal: PayPal's SDK and buttons load then and take the form's place (the form stays
 * while they load, and when they cannot).
 */
function PayPalEntry({
  checkoutToken,
  form,
}: {
  checkoutToken: string;
  form: (onSubmit?: (event: FormEvent<HTMLFormElement>) => void) => ReactNode;
}) {
  const hydrated = useHydrated();
  const { paypalClientId, paypalSdkUrl } = useStore();
  const [chosen, setChosen] = useState(false);
  if (!hydrated || !paypalClientId) return <>{form()}</>;
  if (!chosen) {
    return (
      <>
        {form((event) => {
          event.preventDefault();
          setChosen(true);
        })}
      </>
    );
  }
  const fallback = form();
  return (
    <Suspense fallback={fallback}>
      <PayPalButtons clientId={paypalClientId} sdkUrl={paypalSdkUrl} checkoutToken={checkoutToken} fallback={fallback} />
    </Suspense>
  );
}
