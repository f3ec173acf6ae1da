import type { CustomerDetails } from "~/orders/customer";
/**
 * How a shopper pays. The route segment of /checkout-authorized/{method}
 * names the provider of each method, as the spec's routes do.
 */
export const PAYMENT_METHODS = {
  stripe: {
    kind: "card",
    label: "Credit or debit card",
    description: "Pay by card in a secure form from Stripe: Visa, Mastercard, American Express or Discover.",
  },
  paypal: { kind: "wallet", label: "PayPal", description: "Pay from your PayPal account: you sign in and approve the payment at PayPal." },
  affirm: {
    kind: "financing",
    label: "Monthly payments with Affirm",
    description: "Spread the cost over monthly payments: Affirm shows your rate and asks you to confirm.",
  },
  authorizenet: {
    kind: "hosted-card",
    label: "Card on Authorize.Net's secure payment form",
    description: "Pay by card on Authorize.Net's secure payment page, then return here for your confirmation.",
  },
} as const;

export type PaymentMethod = keyof typeof PAYMENT_METHODS;

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === "string" && Object.hasOwn(PAYMENT_METHODS, value);
}

/** Who took the money: a real provider, or the offline test page ("test"), which takes none. */
export type PaymentProviderId = "stripe" | "paypal" | "affirm" | "authorizenet" | "test";

export const PAYMENT_CURRENCY = "USD";

/** A method the checkout offers right now, and who takes the money for it. */
export interface PaymentOption {
  method: PaymentMethod;
  label: string;
  /** One line under the button: what choosing it does. */
  description: string;
  /** "test" when this method opens the offline test page. */
  provider: PaymentProviderId;
  isTest: boolean;
}

/** One line of the server-priced checkout, as providers that list items need it. */
export interface PaymentItem {
  productKey: string;
  title: string;
  model: string;
  brand: string;
  /** Absolute URLs. */
  imageUrl: string;
  productUrl: string;
  categories: string[];
  unitPriceCents: number;
  quantity: number;
}

/** The checkout's customer as a provider is told: the form's fields and the country code. */
export type PaymentCustomer = CustomerDetails & {
  /** ISO 3166 alpha-2: always "US" for this store. */
  countryCode: "US";
};

/**
 * How the shopper pays: "redirect" sends them to a page (the provider's hosted
 * page or ours) and works without script; "embedded" means our page confirms
 * the payment with the provider's browser widget, using `clientData`.
 * Providers with a single way ignore it.
 */
export type PaymentFlow = "redirect" | "embedded";

export interface StartPaymentInput {
  /** Our id for this payment attempt: the idempotency key and the metadata every provider keeps. */
  attemptId: string;
  /** The pending checkout this payment is for (also sent as metadata). */
  checkoutToken: string;
  /** Computed on the server from the catalog and the pending checkout; never from the client. */
  amountCents: number;
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  /** The sales tax of the checkout's calculation, part of `amountCents` (subtotal − discount + shipping + tax). */
  taxCents: number;
  currency: typeof PAYMENT_CURRENCY;
  description: string;
  items: PaymentItem[];
  customer: PaymentCustomer;
  /** Absolute URL the shopper returns to once the provider has the payment (carries checkout_token and attempt). */
  returnUrl: string;
  /** Absolute URL for a shopper who gives up. */
  cancelUrl: string;
  flow: PaymentFlow;
}

export interface StartedPayment {
  /** The provider's id for this payment (PaymentIntent, PayPal order, Affirm checkout, hosted-form reference...). */
  reference: string;
  /** Where to send a shopper without script: a provider's hosted page, or a page of ours that posts to it. */
  redirectUrl: string;
  /** What the browser widget needs, if this provider has one (Stripe client secret, PayPal order id, form token...). */
  clientData?: Record<string, string>;
}

export interface VerifyPaymentInput {
  attemptId: string;
  /** The reference startPayment returned. */
  reference: string;
  /** The amount this attempt was created for, to compare with what the provider reports. */
  amountCents: number;
  /** Query (or posted form) parameters the provider added when it sent the shopper back, e.g. Affirm's checkout_token. */
  returnParams: URLSearchParams;
  /**
   * Whether verifying may take the money where that needs a step of ours (PayPal's capture, Affirm's
   * authorization); true unless said. False once another payment paid the checkout or this one was
   * cancelled: such a payment then answers "uncollected" and nothing moves.
   */
  collect?: boolean;
}

export type PaymentVerification =
  /** The provider holds the money (captured, succeeded or authorized) for exactly this amount and currency. */
  | {
      status: "approved";
      reference: string;
      amountCents: number;
      currency: string;
      /** An authorized-only payment (Affirm) must be captured before this. */
      authorizationExpiresAt?: Date;
    }
  | { status: "declined"; reference: string; message: string }
  /** Not decided yet, or the provider could not be asked (time-out, 5xx, garbage): ask again later, record nothing. */
  | { status: "pending"; reference: string; message?: string }
  /** `collect` was false and the money needs a step of ours: nothing was taken, and nothing will be by this attempt. */
  | { status: "uncollected"; reference: string };

/**
 * One payment provider. The server starts a payment and later verifies it
 * with the provider itself; an order is recorded only after an "approved"
 * verification for the attempt's amount, whatever the browser says.
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  readonly method: PaymentMethod;
  readonly name: string;
  /** True for the offline test page: no money moves. */
  readonly isStandIn: boolean;
  startPayment(input: StartPaymentInput): Promise<StartedPayment>;
  /** Asks the provider what became of a payment (and captures or authorizes it where the provider needs that step). */
  verifyPayment(input: VerifyPaymentInput): Promise<PaymentVerification>;
  /**
   * Gives the whole payment back (a refund, or a void before settlement), or with `part` exactly
   * `amountCents` of it (a refund, never a void); throws PaymentError when the provider cannot be asked.
   */
  refundPayment?(input: RefundInput): Promise<RefundResult>;
  /** Closes a payment the shopper gave up, so that it can no longer be paid (Stripe expires its session); throws PaymentError. */
  cancelPayment?(input: { attemptId: string; reference: string }): Promise<void>;
  /** Takes an authorized-only payment (Affirm's loan) when its order ships; providers that capture when paid have none. */
  capturePayment?(input: CaptureInput): Promise<CaptureResult>;
}

export interface RefundInput {
  attemptId: string;
  /** The reference startPayment returned (the provider finds the money behind it). */
  reference: string;
  /** The id of the money the verification approved (Affirm's transaction id; elsewhere the same as `reference`). */
  paymentId: string;
  amountCents: number;
  /**
   * A part of the payment (a returned item, or what is left after one): exactly `amountCents` is
   * refunded, under this idempotency key (Stripe's Idempotency-Key, PayPal-Request-Id, Affirm's
   * Idempotency-Key), so a retry never refunds it twice. Without it the whole payment is given back.
   */
  part?: { idempotencyKey: string };
}

export interface CaptureInput {
  attemptId: string;
  /** The id of the money the verification approved (Affirm's transaction id). */
  paymentId: string;
  orderId: string;
  amountCents: number;
}

export type CaptureResult = { status: "captured" } | { status: "refused"; message: string };

export type RefundResult =
  /** `refundReference`: the provider's id of the refund (or of the voided transaction). */
  { status: "refunded"; refundReference: string } | { status: "refused"; message: string };

/** A provider that could not be reached or answered something we cannot use. Its message is safe to log, not to show. */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly provider: PaymentProviderId,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PaymentError";
  }
}
