/** What the checkout says after the shopper cancelled at any payment provider (or on the test page). */
export const PAYMENT_CANCELLED_MESSAGE = "Payment cancelled. Your cart and details are unchanged; you can pay again.";

/** The "Payment not finished" page's promise. */
export const PAYMENT_PENDING_EMAIL_NOTE = "We will email you as soon as the payment is confirmed.";

/** What a shopper whose checkout was paid twice is told, on the return page and by email. */
export const CHARGED_TWICE_MESSAGE = "You were charged twice; we are refunding the second payment.";

/** What a shopper is told when a late payment lost its checkout's first-purchase discount to another order. */
export const DISCOUNT_TAKEN_MESSAGE =
  "This payment arrived after its checkout's LOVERUB10 discount went to another of your orders, so it did not become an order; we are refunding it.";

/** `payment_error=stock` when the checkout's lines can all be had again (the stock came back since): nothing was charged. */
export const PAYMENT_STOCK_CHANGED_MESSAGE =
  "Part of this order was not in stock when you chose to pay, so the payment was not started and nothing was charged. Please try again.";
