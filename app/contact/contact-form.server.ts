import { z } from "zod";
import { emailAddressSchema } from "~/utils/email-address.server";
import { parseForm, type FormFields } from "~/utils/forms.server";
import { CONTACT_FIELDS, CONTACT_LIMITS, CONTACT_MESSAGES, HONEYPOT_FIELD, type ContactErrors, type ContactValues } from "./contact";

/** Server-side validation of the contact form (zod), apart from the fields and texts the page needs. */

const required = (message: string, max: number, label: string) =>
  z
    .string()
    .trim()
    .min(1, { message })
    .max(max, { message: CONTACT_MESSAGES.tooLong(label, max) });

const contactSchema = z.object({
  name: required(CONTACT_MESSAGES.name, CONTACT_LIMITS.name, "Name"),
  email: emailAddressSchema(CONTACT_MESSAGES.email),
  phone: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.phone, { message: CONTACT_MESSAGES.phone })
    .refine((value) => /^[0-9+().\-\s]*$/.test(value) && /^\d{10,15}$/.test(value.replace(/\D/g, "")), {
      message: CONTACT_MESSAGES.phone,
    }),
  message: required(CONTACT_MESSAGES.message, CONTACT_LIMITS.message, "Message"),
});

export type ContactParseResult =
  { ok: true; values: ContactValues; isBot: boolean } | { ok: false; values: ContactValues; errors: ContactErrors; isBot: boolean };

/** Reads the posted form; never throws. Values come back as typed (trimmed when valid). */
export function parseContactForm(input: FormFields): ContactParseResult {
  const raw = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, typeof input[field] === "string" ? input[field] : ""]),
  ) as ContactValues;
  const honeypot = input[HONEYPOT_FIELD];
  const isBot = typeof honeypot === "string" && honeypot.trim() !== "";
  const result = parseForm(contactSchema, raw);
  if (result.ok) return { ok: true, values: result.data, isBot };
  const errors = result.errors as ContactErrors;
  // Very long input is not echoed back in full.
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, raw[field].slice(0, CONTACT_LIMITS[field] * 2)]),
  ) as ContactValues;
  return { ok: false, values, errors, isBot };
}
