import { z } from "zod";
import { emailAddressSchema } from "~/utils/email-address.server";
import type { FormFields } from "~/utils/forms.server";
import { NEWSLETTER_HONEYPOT_FIELD, NEWSLETTER_SOURCES, type NewsletterSource } from "./newsletter";

/**
 * The newsletter form's server-side validation (zod), kept apart from the
 * messages and helpers in newsletter.ts so the browser bundle carries no zod.
 */
const sourceSchema = z.enum(NEWSLETTER_SOURCES).catch("footer");

const formSchema = z.object({
  email: z.string().catch(""),
  source: sourceSchema,
});

const emailSchema = emailAddressSchema();

export type ParsedNewsletterForm =
  { valid: true; source: NewsletterSource; email: string } | { valid: false; source: NewsletterSource; email: string };

/** Reads the form; never throws. `email` is trimmed when valid, as typed otherwise. */
export function parseNewsletterForm(input: FormFields | Record<string, unknown>): ParsedNewsletterForm {
  const { email, source } = formSchema.parse(input);
  const checked = emailSchema.safeParse(email);
  return checked.success ? { valid: true, source, email: checked.data } : { valid: false, source, email: email.slice(0, 500) };
}

/** A filled honeypot: a script, not a person. Its sign-up is answered like any other and dropped. */
export function isNewsletterBot(input: FormFields | Record<string, unknown>): boolean {
  const value = input[NEWSLETTER_HONEYPOT_FIELD];
  return typeof value === "string" && value.trim() !== "";
}
