import type { PaymentMethod } from "~/services/payments/types";

/** The return page of an attempt; providers send the shopper back here. */
export function paymentReturnPath(method: PaymentMethod, checkoutToken: string, attemptId: string): string {
  return `/checkout-authorized/${method}?${new URLSearchParams({ checkout_token: checkoutToken, attempt: attemptId })}`;
}

/** Where a shopper who cancels at a provider (or on the test page) comes back: the checkout says "Payment cancelled". */
export function paymentCancelPath(checkoutToken: string, attemptId: string): string {
  return `/payments/cancelled?${new URLSearchParams({ checkout_token: checkoutToken, attempt: attemptId })}`;
}
