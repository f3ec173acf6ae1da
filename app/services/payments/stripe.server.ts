import type Stripe from "stripe";
import type { Config } from "~/config.server";
import { importOnce } from "~/utils/import-once.server";
import {
  PAYMENT_CURRENCY,
  PaymentError,
  type PaymentProvider,
  type PaymentVerification,
  type RefundResult,
  type StartedPayment,
  type StartPaymentInput,
  type VerifyPaymentInput,
} from "./types";

const PROVIDER = "stripe";
const TIMEOUT_MS = 10_000;
/** The SDK retries connection errors, 409 and 5xx answers with the same idempotency key. */
const MAX_NETWORK_RETRIES = 2;
const CURRENCY = PAYMENT_CURRENCY.toLowerCase();
const loadSdk = importOnce(async () => (await import("stripe")).default);

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  /** e.g. `http://127.0.0.1:PORT` for a local fake; Stripe's own API when unset. */
  apiBase?: string | undefined;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export function isStripeConfigured(config: Config): boolean {
  return Boolean(config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY);
}

export function stripeOptionsFromConfig(config: Config): StripeProviderOptions {
  return {
    secretKey: config.STRIPE_SECRET_KEY ?? "",
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? "",
    apiBase: config.STRIPE_API_BASE,
  };
}

/** The SDK's connection settings for an API base URL (only its scheme, host and port count). */
export function stripeConnection(apiBase: string | undefined): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

/**
 * Card payments through Stripe. With script, a PaymentIntent ("embedded"
 * flow) whose client secret the Payment Element confirms in our page; without
 * script, a Checkout Session ("redirect" flow) on Stripe's hosted page. Either
 * way the attempt id is the idempotency key, the metadata carries our checkout
 * token and attempt id, and verification asks Stripe for the object again.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const connect = importOnce(async () => {
    const StripeClient = await loadSdk();
    return new StripeClient(options.secretKey, {
      timeout: options.timeoutMs ?? TIMEOUT_MS,
      maxNetworkRetries: options.maxNetworkRetries ?? MAX_NETWORK_RETRIES,
      ...stripeConnection(options.apiBase),
    });
  });

  /** Every SDK failure (time-out, connection, 4xx, 5xx, garbage) becomes a PaymentError; no raw SDK error leaves. */
  async function call<T>(what: string, request: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await connect();
    let answer: T;
    try {
      answer = await request(stripe);
    } catch (error) {
      throw toPaymentError(what, error, await loadSdk());
    }
    if (typeof answer !== "object" || answer === null) throw new PaymentError(`Stripe answered an unexpected body to ${what}.`, PROVIDER);
    return answer;
  }

  async function createPaymentIntent(input: StartPaymentInput): Promise<StartedPayment> {
    const intent = await call("create a PaymentIntent", (stripe) =>
      stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: CURRENCY,
          description: input.description,
          receipt_email: input.customer.email,
          automatic_payment_methods: { enabled: true },
          metadata: metadataOf(input),
        },
        { idempotencyKey: input.attemptId },
      ),
    );
    if (!isId(intent.id, "pi_") || typeof intent.client_secret !== "string" || intent.client_secret === "") {
      throw new PaymentError("Stripe answered a PaymentIntent without id or client secret.", PROVIDER);
    }
    return {
      reference: intent.id,
      // Without script the widget cannot run: the return page then asks Stripe, which says "not paid yet".
      redirectUrl: input.returnUrl,
      // Stripe.js sends the shopper to returnUrl once the Payment Element has confirmed the payment.
      clientData: { clientSecret: intent.client_secret, publishableKey: options.publishableKey, returnUrl: input.returnUrl },
    };
  }

  async function createCheckoutSession(input: StartPaymentInput): Promise<StartedPayment> {
    const metadata = metadataOf(input);
    const session = await call("create a Checkout Session", (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: { currency: CURRENCY, unit_amount: input.amountCents, product_data: { name: input.description } },
            },
          ],
          customer_email: input.customer.email,
          client_reference_id: input.attemptId,
          success_url: `${input.returnUrl}&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: input.cancelUrl,
          metadata,
          payment_intent_data: { metadata, description: input.description },
        },
        { idempotencyKey: input.attemptId },
      ),
    );
    if (!isId(session.id, "cs_") || typeof session.url !== "string" || !/^https?:\/\//.test(session.url)) {
      throw new PaymentError("Stripe answered a Checkout Session without id or URL.", PROVIDER);
    }
    return { reference: session.id, redirectUrl: session.url };
  }

  async function verifyPaymentIntent({ reference, attemptId }: VerifyPaymentInput): Promise<PaymentVerification> {
    const intent = await call("retrieve a PaymentIntent", (stripe) => stripe.paymentIntents.retrieve(reference));
    if (intent.id !== reference || intent.metadata?.attempt_id !== attemptId) {
      return { status: "declined", reference, message: "This payment belongs to another order." };
    }
    switch (intent.status) {
      case "succeeded":
        return { status: "approved", reference, amountCents: intent.amount_received || intent.amount, currency: intent.currency };
      case "canceled":
        return { status: "declined", reference, message: "The payment was canceled." };
      case "requires_payment_method":
        // Stripe's state both before the first try and after a decline: only a recorded error is a decline.
        return intent.last_payment_error?.message
          ? { status: "declined", reference, message: intent.last_payment_error.message }
          : { status: "pending", reference };
      default:
        return { status: "pending", reference };
    }
  }

  async function verifyCheckoutSession({ reference, attemptId }: VerifyPaymentInput): Promise<PaymentVerification> {
    const session = await call("retrieve a Checkout Session", (stripe) => stripe.checkout.sessions.retrieve(reference));
    if (session.id !== reference || session.metadata?.attempt_id !== attemptId) {
      return { status: "declined", reference, message: "This payment belongs to another order." };
    }
    if (session.payment_status === "paid" && typeof session.amount_total === "number" && typeof session.currency === "string") {
      return { status: "approved", reference, amountCents: session.amount_total, currency: session.currency };
    }
    if (session.status === "expired") return { status: "declined", reference, message: "The payment session expired." };
    return { status: "pending", reference };
  }

  return {
    id: PROVIDER,
    method: "stripe",
    name: "Stripe",
    isStandIn: false,
    startPayment(input) {
      return input.flow === "embedded" ? createPaymentIntent(input) : createCheckoutSession(input);
    },
    verifyPayment(input) {
      if (isId(input.reference, "pi_")) return verifyPaymentIntent(input);
      if (isId(input.reference, "cs_")) return verifyCheckoutSession(input);
      return Promise.resolve({ status: "declined", reference: input.reference, message: "Unknown payment." });
    },
    /** Expires the Checkout Session, or cancels the PaymentIntent, so the given-up payment can no longer be paid. */
    async cancelPayment({ reference }): Promise<void> {
      const [stripe, StripeSdk] = await Promise.all([connect(), loadSdk()]);
      try {
        if (isId(reference, "cs_")) await stripe.checkout.sessions.expire(reference);
        else if (isId(reference, "pi_")) await stripe.paymentIntents.cancel(reference);
      } catch (error) {
        // Already paid, expired or canceled: nothing is left open to close (a payment that went through is judged on its own).
        if (error instanceof StripeSdk.errors.StripeInvalidRequestError) return;
        throw toPaymentError("close a payment", error, StripeSdk);
      }
    },
    /** A full refund of the PaymentIntent (a Checkout Session's own one), keyed by the attempt so a retry refunds once. */
    async refundPayment({ reference, attemptId, amountCents, part }): Promise<RefundResult> {
      let intentId: string | null = isId(reference, "pi_") ? reference : null;
      if (isId(reference, "cs_")) {
        const session = await call("retrieve a Checkout Session", (stripe) => stripe.checkout.sessions.retrieve(reference));
        const intent = session.payment_intent;
        intentId = typeof intent === "string" ? intent : (intent?.id ?? null);
      }
      if (!intentId) return { status: "refused", message: "Stripe holds no payment for this attempt." };
      const paymentIntent = intentId;
      const [stripe, StripeSdk] = await Promise.all([connect(), loadSdk()]);
      try {
        const refund = part
          ? await stripe.refunds.create({ payment_intent: paymentIntent, amount: amountCents }, { idempotencyKey: part.idempotencyKey })
          : await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `refund-${attemptId}` });
        return refund.status === "failed" || refund.status === "canceled"
          ? { status: "refused", message: `Stripe's refund ${refund.id} is ${refund.status}.` }
          : { status: "refunded", refundReference: refund.id };
      } catch (error) {
        if (error instanceof StripeSdk.errors.StripeInvalidRequestError) return { status: "refused", message: error.message };
        throw toPaymentError("refund a payment", error, StripeSdk);
      }
    },
  };
}

/** Our references, and the tax included in the amount (the one line item is the total), for the dashboard. */
function metadataOf(input: StartPaymentInput): Record<string, string> {
  return { checkout_token: input.checkoutToken, attempt_id: input.attemptId, tax_cents: String(input.taxCents) };
}

function isId(value: unknown, prefix: string): value is string {
  return typeof value === "string" && value.startsWith(prefix) && /^[A-Za-z0-9_]+$/.test(value) && value.length <= 255;
}

function toPaymentError(what: string, error: unknown, StripeSdk: typeof Stripe): PaymentError {
  if (error instanceof StripeSdk.errors.StripeError) {
    const status = typeof error.statusCode === "number" ? error.statusCode : undefined;
    return new PaymentError(`Stripe could not ${what}: ${error.type}${status ? ` ${status}` : ""}: ${error.message}`, PROVIDER, status);
  }
  return new PaymentError(`Stripe could not ${what}: ${error instanceof Error ? error.message : String(error)}`, PROVIDER);
}

/**
 * The event of a webhook delivery whose `Stripe-Signature` matches the raw
 * body and the endpoint secret (and is at most 5 minutes old), else null.
 */
export async function verifiedStripeEvent(rawBody: string, signature: string | null, secret: string): Promise<Stripe.Event | null> {
  if (!signature) return null;
  const StripeSdk = await loadSdk();
  try {
    return StripeSdk.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    return null;
  }
}

/** The payment reference a webhook event is about: a PaymentIntent or Checkout Session id we may have stored. */
export function paymentReferenceOfEvent(event: Stripe.Event): string | null {
  if (event.type !== "payment_intent.succeeded" && event.type !== "checkout.session.completed") return null;
  const id = (event.data.object as { id?: unknown }).id;
  return typeof id === "string" && (isId(id, "pi_") || isId(id, "cs_")) ? id : null;
}
