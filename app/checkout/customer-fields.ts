import type { CustomerDetails, CustomerField } from "~/orders/customer";
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

export const US_STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
] as const;

export type CustomerErrors = Partial<Record<CustomerField, string>>;

/** The form values of a checkout's customer, to refill the form ("Change details") and mirror locally. */
export function customerDetails(customer: CustomerDetails): CustomerDetails {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone,
    address: customer.address,
    city: customer.city,
    state: customer.state,
    postalCode: customer.postalCode,
  };
}
