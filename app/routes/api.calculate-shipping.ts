import { z } from "zod";
import { US_STATES } from "~/checkout/customer-fields";
import { quoteCarrierShipping, SHIPPING_FAILED_MESSAGE } from "~/checkout/shipping-quote.server";
import { warehouseAddress } from "~/services/shipping/index.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed, tooManyRequests } from "~/utils/json-route.server";

/**
 * Spec section 7: `POST /api/calculate-shipping` with the order (from address;
 * to address; parcel), service 'Priority' and carrier 'USPS', answering a list
 * whose first item's `retail_rate` is the cost. Parcels always leave from our
 * warehouse, so a `from_address` that is sent is checked but not used.
 * A carrier failure answers `{ error, shipping: 0 }` (spec section 8).
 */
const text = (max: number) => z.string().trim().min(1).max(max);
const address = z.strictObject({
  name: text(200),
  street1: text(200),
  street2: z.string().trim().max(200).optional(),
  city: text(100),
  state: z.string().trim().toUpperCase().pipe(z.enum(US_STATES, "must be a two-letter US state code")),
  zip: z
    .string()
    .trim()
    .regex(/^\d{5}(?:-\d{4})?$/, "must be a 5-digit US ZIP"),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(["US", "USA"], "must be US: we ship only within the United States")),
  phone: z.string().trim().max(30).optional(),
});
// Inches and ounces, within what a USPS Priority parcel may be (108 in, 70 lb).
const inches = z.number().positive().max(108);
const payload = z.strictObject({
  order: z.strictObject({
    from_address: address.optional(),
    to_address: address,
    parcel: z.strictObject({ length: inches, width: inches, height: inches, weight: z.number().positive().max(1_120) }),
  }),
  service: z.literal("Priority"),
  carrier: z.literal("USPS"),
});

export const loader = methodNotAllowed;

export const action = jsonAction(payload, async ({ context, payload: { order } }) => {
  const { to_address: to, parcel } = order;
  const outcome = await quoteCarrierShipping(
    context.store.rateLimiter,
    context.clientAddress,
    { from: warehouseAddress(context.store.config), to: { ...to, country: "US" }, parcel },
    context.store.shippingRates,
  );
  if (outcome.status === "rate-limited") return tooManyRequests(outcome);
  if (outcome.status === "failed") return jsonError(502, SHIPPING_FAILED_MESSAGE, { shipping: 0 });

  const { quote } = outcome;
  const dollars = (quote.amountCents / 100).toFixed(2);
  return jsonResponse([{ carrier: quote.carrier, service: quote.service, retail_rate: dollars, rate: dollars, currency: "USD" }]);
});
