import { Form } from "@remix-run/react";
import { PAYMENT_METHODS, type PaymentMethod } from "~/services/payments/types";
import { formatUsd } from "~/utils/format";

/**
 * The payment choices, shown once the contact form is valid. Each is a POST
 * that starts the payment on the server for the checkout's server-computed
 * total; the browser never sends an amount.
 */
export function PaymentMethods({ checkoutToken, totalCents, testMode }: { checkoutToken: string; totalCents: number; testMode: boolean }) {
  return (
    <section className="payment-methods" aria-labelledby="payment-heading">
      <h2 id="payment-heading">Payment</h2>
      {testMode ? (
        <p className="notice notice--info">
          Test mode: no payment provider is configured, so each method opens our own test payment page. No money moves.
        </p>
      ) : null}
      <p>
        Amount to pay: <strong data-testid="payment-amount">{formatUsd(totalCents)}</strong>
      </p>
      <ul>
        {(Object.keys(PAYMENT_METHODS) as PaymentMethod[]).map((method) => (
          <li key={method}>
            <Form method="post" action="/payments/start">
              <input type="hidden" name="checkout" value={checkoutToken} />
              <input type="hidden" name="method" value={method} />
              <button type="submit" className={method === "stripe" ? "button button--primary button--block" : "button button--block"}>
                {PAYMENT_METHODS[method].label}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
