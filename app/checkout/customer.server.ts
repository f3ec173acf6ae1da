import { z } from "zod";
import { emailAddressSchema } from "~/utils/email-address.server";
import { parseForm, type FormFields } from "~/utils/forms.server";

import type { CustomerField } from "~/orders/customer";
import { CUSTOMER_MESSAGES, US_STATES, type CustomerErrors } from "./customer-fields";

export { CUSTOMER_MESSAGES, US_STATES, type CustomerErrors, type CustomerField };

const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, message);

export const customerSchema = z.object({
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

export type CustomerInput = z.infer<typeof customerSchema>;
export const CUSTOMER_FIELDS = Object.keys(customerSchema.shape) as CustomerField[];

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
