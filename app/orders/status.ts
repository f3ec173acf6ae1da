/**
 * The order statuses, in the order staff pick them. Client-safe (the
 * dashboard's status form lists them), so it imports nothing: the database
 * schema takes them from here, not the other way round.
 */
export const ORDER_STATUSES = ["Approved", "Packed", "Shipped", "Cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
