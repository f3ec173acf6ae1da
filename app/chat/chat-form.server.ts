import { z } from "zod";

/** What the chat page may post: a quick option, a message, or starting over. */
export const chatFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("option"), value: z.string().min(1).max(200) }),
  z.object({ intent: z.literal("message"), text: z.string() }),
  z.object({ intent: z.literal("reset") }),
]);
