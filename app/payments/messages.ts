/** What the checkout says after the shopper cancelled at any payment provider (or on the test page). */
export const PAYMENT_CANCELLED_MESSAGE = "Payment cancelled. Your cart and details are unchanged; you can pay again.";

/** The "Payment not finished" page's promise. */
export const PAYMENT_PENDING_EMAIL_NOTE = "We will email you as soon as the payment is confirmed.";
