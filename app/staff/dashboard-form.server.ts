import { z } from "zod";
import { CARRIER_IDS } from "~/orders/shipping";

export const CARRIER_REQUIRED = "Choose the carrier to mark the order Shipped.";
export const TRACKING_REQUIRED = "Enter the tracking number to mark the order Shipped.";
export const TRACKING_MALFORMED = "A tracking number has 4 to 40 letters, digits or dashes.";
export const DELIVERY_DATE_MALFORMED = "Enter the delivery date, no later than today.";

/** A tracking number as carriers print it, spaces dropped ("9400 1000 ..." is one number). */
export const trackingNumberSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(1, TRACKING_REQUIRED)
      .regex(/^[A-Za-z0-9-]{4,40}$/, TRACKING_MALFORMED),
  );

/** Carrier and tracking number, both required to ship. */
export const shipmentSchema = z.object({
  carrier: z.enum(CARRIER_IDS, { error: CARRIER_REQUIRED }),
  trackingNumber: trackingNumberSchema,
});

const deliveryDate = z.iso.date({ error: DELIVERY_DATE_MALFORMED });

/**
 * What the dashboard posts: a status change (the status itself is checked by updateOrderStatus; Shipped
 * takes a carrier and tracking number, read by shipmentSchema), a delivery date, a refund of a payment, or
 * sending a tax record the provider refused again.
 */
export const dashboardForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("status"),
    orderId: z.string().max(40),
    status: z.string().max(40),
    carrier: z.string().max(40).optional(),
    trackingNumber: z.string().max(80).optional(),
  }),
  z.object({ intent: z.literal("delivered"), orderId: z.string().max(40), deliveredOn: deliveryDate }),
  z.object({ intent: z.literal("delivered-test"), orderId: z.string().max(40) }),
  z.object({ intent: z.literal("refund"), attemptId: z.string().max(80) }),
  z.object({ intent: z.literal("tax-retry"), recordId: z.string().max(40) }),
]);
