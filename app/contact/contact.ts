/** The contact form's rules and words, shared by the action and the page. Client-safe. */

export { SERVICE_HOURS } from "./service-hours";

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
