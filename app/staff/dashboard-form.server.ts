import { z } from "zod";

/** What the dashboard posts: a status change (the status itself is checked by updateOrderStatus). */
export const dashboardForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("status"), orderId: z.string().max(40), status: z.string().max(40) }),
]);
