import { z } from "zod";

/** What the dashboard posts: a status change (the status itself is checked by updateOrderStatus), or a refund of a payment. */
export const dashboardForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("status"), orderId: z.string().max(40), status: z.string().max(40) }),
  z.object({ intent: z.literal("refund"), attemptId: z.string().max(80) }),
]);
