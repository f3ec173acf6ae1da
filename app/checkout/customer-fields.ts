import type { CustomerField } from "~/orders/customer";
import { US_STATES } from "~/utils/us-states";
/**
 * The checkout form's fields, states and messages: plain values the browser
 * needs for the form, apart from the zod schema in customer.ts.
 */
/** The checkout contact and address form, with the spec's exact messages. */
export const CUSTOMER_MESSAGES = {
  firstName: "Please enter your first name.",
  lastName: "Please enter your last name.",
  address: "Please enter your address.",
  email: "Please enter a valid email address.",
  phone: "Please enter a valid phone number (10-15 digits).",
  city: "Please enter your city.",
  state: "Please choose your state.",
  postalCode: "Please enter a valid ZIP code.",
} as const;

export { US_STATES };

export type CustomerErrors = Partial<Record<CustomerField, string>>;
