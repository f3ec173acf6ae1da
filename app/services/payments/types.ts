/**
 * How a shopper pays. The route segment of /checkout-authorized/{method}
 * names the provider of each method, as the spec's routes do.
 */
export const PAYMENT_METHODS = {
  stripe: { kind: "card", label: "Credit or debit card" },
  paypal: { kind: "wallet", label: "PayPal" },
  affirm: { kind: "financing", label: "Monthly payments with Affirm" },
} as const;

export type PaymentMethod = keyof typeof PAYMENT_METHODS;

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === "string" && Object.hasOwn(PAYMENT_METHODS, value);
}

export interface StartPaymentInput {
  checkoutToken: string;
  amountCents: number;
  description: string;
  /** Absolute URL the shopper returns to once the provider has the payment. */
  returnUrl: string;
  /** Absolute URL for a shopper who gives up. */
  cancelUrl: string;
}

export type PaymentVerification =
  | { status: "approved"; reference: string; amountCents: number }
  | { status: "declined"; reference: string; message: string }
  | { status: "pending"; reference: string };

/**
 * One payment provider. The server starts a payment and later verifies it
 * with the provider itself; an order is recorded only after an "approved"
 * verification, whatever the browser says.
 */
export interface PaymentProvider {
  readonly method: PaymentMethod;
  readonly name: string;
  readonly isStandIn: boolean;
  /** Where to send the shopper to pay, and the provider's reference for this payment. */
  startPayment(input: StartPaymentInput): Promise<{ redirectUrl: string; reference: string }>;
  /** Asks the provider what became of a payment. */
  verifyPayment(reference: string): Promise<PaymentVerification>;
}

export class PaymentError extends Error {
  constructor(
    message: string,
    readonly provider: string,
  ) {
    super(message);
    this.name = "PaymentError";
  }
}
