import type { OrderStatus } from "~/orders/status";

/** The five steps of the customer's progress bar. */
export const PROGRESS_STEPS = ["Order Created", "Order Paid", "Order Approved", "Order Packed", "Order Shipped"] as const;

/** How many steps are done for a status; a recorded order has always been created, paid and approved. */
export function completedSteps(status: OrderStatus): number {
  switch (status) {
    case "Approved":
      return 3;
    case "Packed":
      return 4;
    case "Shipped":
      return 5;
    case "Cancelled":
      return 0;
  }
}
