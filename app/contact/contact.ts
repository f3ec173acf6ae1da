import { z } from "zod";

/** The contact form's rules and words, shared by the action and the page. Client-safe. */

export const SERVICE_HOURS = "Monday to Friday, 8am to 6pm CT";

export const CONTACT_FIELDS = ["name", "email", "phone", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

/** Name of the honeypot: hidden from people, filled in by naive bots. */
export const HONEYPOT_FIELD = "company_website";

export const CONTACT_MESSAGES = {
  name: "Please enter your name.",
  email: "Please enter a valid email address.",
  phone: "Please enter a valid phone number (10-15 digits).",
  message: "Please enter a message.",
  tooLong: (label: string, max: number) => `${label} must be ${max} characters or fewer.`,
  success: "Thank you for contacting us! We have received your message and will get back to you within one business day.",
  failed: "Sorry, we could not send your message just now. Please try again, or call or email us.",
} as const;

export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const required = (message: string, max: number, label: string) =>
  z.string().trim().min(1, { message }).max(max, { message: CONTACT_MESSAGES.tooLong(label, max) });

const contactSchema = z.object({
  name: required(CONTACT_MESSAGES.name, CONTACT_LIMITS.name, "Name"),
  email: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.email, { message: CONTACT_MESSAGES.email })
    .regex(EMAIL_PATTERN, { message: CONTACT_MESSAGES.email }),
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
  | { ok: true; values: ContactValues; isBot: boolean }
  | { ok: false; values: ContactValues; errors: ContactErrors; isBot: boolean };

/** Reads the posted form; never throws. Values come back as typed (trimmed when valid). */
export function parseContactForm(input: Record<string, unknown>): ContactParseResult {
  const raw = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, typeof input[field] === "string" ? (input[field] as string) : ""]),
  ) as ContactValues;
  const honeypot = input[HONEYPOT_FIELD];
  const isBot = typeof honeypot === "string" && honeypot.trim() !== "";
  const result = contactSchema.safeParse(raw);
  if (result.success) return { ok: true, values: result.data, isBot };
  const errors: ContactErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField;
    errors[field] ??= issue.message;
  }
  // Very long input is not echoed back in full.
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, raw[field].slice(0, CONTACT_LIMITS[field] * 2)]),
  ) as ContactValues;
  return { ok: false, values, errors, isBot };
}
