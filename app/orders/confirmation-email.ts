/** What the shopper is told about an order's confirmation email: sent, still to be sent (queued), or given up. Client-safe. */
export type ConfirmationEmailState = "sent" | "pending" | "failed";
