import { z } from "zod";
import { emailAddressSchema } from "~/utils/email-address.server";
import { parseForm, type FormFields } from "~/utils/forms.server";
import { stateOfZip } from "~/services/tax/zip-states";
import { US_STATE_NAMES } from "~/utils/us-state-names";

import type { CustomerField } from "~/orders/customer";
import { CUSTOMER_MESSAGES, US_STATES, type CustomerErrors } from "./customer-fields";

export { CUSTOMER_MESSAGES, US_STATES, type CustomerErrors, type CustomerField };

/**
 * One line of text: line breaks and other control characters become a space, so nothing typed into a
 * name or an address starts a new line of an email, a label or a provider's record.
 */
const oneLine = (value: string) => value.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").trim();
const required = (message: string) => z.string({ error: message }).transform(oneLine).pipe(z.string().min(1, message).max(200, message));

const customerFields = z.object({
  firstName: required(CUSTOMER_MESSAGES.firstName),
  lastName: required(CUSTOMER_MESSAGES.lastName),
  email: emailAddressSchema(CUSTOMER_MESSAGES.email),
  phone: z
    .string({ error: CUSTOMER_MESSAGES.phone })
    .trim()
    .regex(/^\d{10,15}$/, CUSTOMER_MESSAGES.phone),
  address: required(CUSTOMER_MESSAGES.address),
  city: required(CUSTOMER_MESSAGES.city),
  state: z.enum(US_STATES, { error: CUSTOMER_MESSAGES.state }),
  postalCode: z
    .string({ error: CUSTOMER_MESSAGES.postalCode })
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, CUSTOMER_MESSAGES.postalCode),
});

/** The form's fields, and a ZIP code that belongs to the state chosen: sales tax and shipping follow both. */
export const customerSchema = customerFields.superRefine((customer, context) => {
  // Zod may run this over fields that failed their own checks: those already have their message.
  if (!(customer.state in US_STATE_NAMES) || !/^\d{5}(-\d{4})?$/.test(customer.postalCode)) return;
  const zipState = stateOfZip(customer.postalCode);
  if (zipState === customer.state) return;
  const message = zipState
    ? `This ZIP code is not in ${US_STATE_NAMES[customer.state]}. Please check the state and the ZIP code.`
    : "This ZIP code is not one of the United States'. Please check it.";
  context.addIssue({ code: "custom", path: ["postalCode"], message });
});

export type CustomerInput = z.infer<typeof customerSchema>;
export const CUSTOMER_FIELDS = Object.keys(customerFields.shape) as CustomerField[];

export type CustomerParse =
  | { ok: true; customer: CustomerInput; values: Record<CustomerField, string> }
  | { ok: false; errors: CustomerErrors; values: Record<CustomerField, string> };

/** Validates the posted form; on failure gives one message per field and the values as typed. */
export function parseCustomer(fields: FormFields): CustomerParse {
  const values = Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, (fields[field] ?? "").slice(0, 300)])) as Record<
    CustomerField,
    string
  >;
  const result = parseForm(customerSchema, values);
  return result.ok ? { ok: true, customer: result.data, values } : { ok: false, errors: result.errors as CustomerErrors, values };
}
