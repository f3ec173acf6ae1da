import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeError } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure/index.mjs";
import { useEffect, useState, type FormEvent } from "react";
import { useStore } from "~/components/shared";

const UNEXPECTED = "Payment failed: An unexpected error occurred.";

interface CardPayment {
  clientSecret: string;
  publishableKey: string;
  returnUrl: string;
}

type Loading = { status: "loading" } | { status: "ready"; stripe: Stripe; payment: CardPayment } | { status: "failed"; message: string };

/**
 * The card popup's content: asks our server for a PaymentIntent of the
 * checkout's server-computed total (POST /api/stripe), loads Stripe.js and
 * mounts the Payment Element. Card details go from the shopper's browser to
 * Stripe only; Stripe.js then sends the shopper to our return page, where the
 * server asks Stripe whether the payment succeeded.
 */
export default function StripeCardPayment({ checkoutToken }: { checkoutToken: string }) {
  const { stripeJsUrl } = useStore();
  const [state, setState] = useState<Loading>({ status: "loading" });

  useEffect(() => {
    let current = true;
    startCardPayment(checkoutToken, stripeJsUrl)
      .then((ready) => current && setState({ status: "ready", ...ready }))
      .catch((error: unknown) => current && setState({ status: "failed", message: failureMessage(error) }));
    return () => {
      current = false;
    };
  }, [checkoutToken, stripeJsUrl]);

  if (state.status === "loading") return <p role="status">Loading the card form...</p>;
  if (state.status === "failed") {
    return (
      <>
        <p className="notice notice--error" role="alert">
          {state.message}
        </p>
        {/* Never a dead end: Stripe's hosted payment page works even when Stripe.js cannot load here. */}
        <form method="post" action="/payments/start">
          <input type="hidden" name="checkout" value={checkoutToken} />
          <input type="hidden" name="method" value="stripe" />
          <button type="submit" className="button button--block">
            Pay on Stripe&apos;s payment page instead
          </button>
        </form>
      </>
    );
  }
  return (
    <Elements stripe={state.stripe} options={{ clientSecret: state.payment.clientSecret }}>
      <CardForm returnUrl={state.payment.returnUrl} />
    </Elements>
  );
}

function CardForm({ returnUrl }: { returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || processing) return;
    setProcessing(true);
    setMessage(null);
    try {
      // On success Stripe.js leaves the page for returnUrl; only a failure comes back here.
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
      setMessage(cardErrorMessage(error));
    } catch {
      setMessage(UNEXPECTED);
    }
    setProcessing(false);
  };

  return (
    <form className="card-payment" onSubmit={onSubmit}>
      <PaymentElement />
      <button type="submit" className="button button--primary button--block" disabled={!stripe || !elements || processing}>
        Pay now
      </button>
      <p role="status" className="card-payment__status">
        {processing ? "Processing payment..." : null}
      </p>
      {message ? (
        <p className="notice notice--error" role="alert">
          {message}
        </p>
      ) : null}
    </form>
  );
}

/** Stripe's own message is meant for shoppers for card and validation errors; anything else gets the general one. */
function cardErrorMessage(error: StripeError | undefined): string {
  if (error && (error.type === "card_error" || error.type === "validation_error") && error.message)
    return `Payment failed: ${error.message}`;
  return UNEXPECTED;
}

class CardPaymentError extends Error {}

function failureMessage(error: unknown): string {
  return error instanceof CardPaymentError ? `Payment failed: ${error.message}` : UNEXPECTED;
}

async function startCardPayment(checkoutToken: string, stripeJsUrl: string | null): Promise<{ stripe: Stripe; payment: CardPayment }> {
  const response = await fetch("/api/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ checkoutToken }),
  });
  const body = (await response.json().catch(() => null)) as (Partial<CardPayment> & { error?: string }) | null;
  if (!response.ok || !body?.clientSecret || !body.publishableKey || !body.returnUrl) {
    throw body?.error ? new CardPaymentError(body.error) : new Error(`POST /api/stripe answered ${response.status}`);
  }
  const stripe = await loadStripeJs(body.publishableKey, stripeJsUrl);
  if (!stripe) throw new Error("Stripe.js did not load");
  return { stripe, payment: { clientSecret: body.clientSecret, publishableKey: body.publishableKey, returnUrl: body.returnUrl } };
}

/**
 * Stripe.js from js.stripe.com, or from STRIPE_JS_URL (a local fake in tests):
 * loadStripe uses a `window.Stripe` that is already there instead of injecting
 * its own script, so the configured script is loaded first.
 */
async function loadStripeJs(publishableKey: string, scriptUrl: string | null): Promise<Stripe | null> {
  if (scriptUrl && !("Stripe" in window)) await loadScript(scriptUrl);
  return loadStripe(publishableKey);
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Failed to load ${src}`));
    document.head.appendChild(script);
  });
}
