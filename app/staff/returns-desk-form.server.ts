import { z } from "zod";
import { AFTER_SALE_STATUSES } from "~/db/schema";
import { parseDollars } from "./returns-desk";

/** What the returns desk's forms post (the route `_staff.returns.$number.tsx` reads them). */

/** The status the staff member's page showed: every step moves the request only from that status. */
const seen = z.enum(AFTER_SALE_STATUSES, { error: "This form is out of date. Please open the request again." });

export const deskForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), seen }),
  z.object({
    intent: z.literal("decline"),
    seen,
    reason: z
      .string()
      .trim()
      .min(1, "Say why the request is declined: the customer reads it.")
      .max(1000, "The reason can be at most 1,000 characters."),
  }),
  z.object({
    intent: z.literal("receive"),
    seen,
    /** Checked when the returned items cannot be sold again: they are not put back in stock. */
    damaged: z.literal("on").optional(),
    amount: z
      .string()
      .max(20)
      .refine((value) => parseDollars(value) !== null, "Enter the refund in dollars and cents, e.g. 84.50."),
  }),
]);
