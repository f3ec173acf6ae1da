import { z } from "zod";

/** The longest address SMTP allows. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The one rule for an email address, used by every form that takes one
 * (checkout, contact, newsletter, staff sign-in and accounts) and by the
 * email services before they send: what a form accepts, the mailer sends.
 * Surrounding spaces are trimmed; the address must pass zod's email check
 * (one @, no spaces, a dotted domain ending in two or more letters), which is
 * stricter than the specification's "text, at sign, text, dot, text" and
 * refuses everything that simple pattern refuses.
 */
export function emailAddressSchema(message = "must be a valid email address") {
  return z.string({ error: message }).trim().max(MAX_EMAIL_LENGTH, { message }).pipe(z.email({ message }));
}

const anyEmailAddress = emailAddressSchema();

export function isEmailAddress(value: unknown): boolean {
  return anyEmailAddress.safeParse(value).success;
}
