import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { RATE_LIMITS, waitText } from "~/security/rate-limit.server";
import type { FormFields } from "~/utils/forms.server";
import { sendEmailSafely } from "~/services/email/index.server";
import { contactMessages } from "~/db/schema";
import type { EmailMessage } from "~/services/email/types";
import { contactMessageEmail } from "~/services/email/templates";
import type { ContactErrors, ContactValues } from "./contact";
import { parseContactForm } from "./contact-form.server";
import { logError } from "~/observability/logger.server";

type SendEmail = (message: EmailMessage) => Promise<unknown>;

/**
 * Keeps the message, then emails the store. Storing is what must succeed (it
 * throws when it cannot); the email is sent with a sender that never throws:
 * a failure is logged and the email stays in the delivery queue to be retried.
 */
export async function submitContactMessage(
  { db, sendEmail, store }: { db: Database; sendEmail: SendEmail; store: { name: string; email: string } },
  values: ContactValues,
): Promise<{ id: number }> {
  const [row] = await db
    .insert(contactMessages)
    .values({ name: values.name, email: values.email, phone: values.phone, message: values.message })
    .returning({ id: contactMessages.id });
  const email = contactMessageEmail({ ...values, storeName: store.name });
  await sendEmail({
    to: store.email,
    subject: email.subject,
    text: email.text,
    html: email.html,
    tag: email.tag,
    replyTo: email.replyTo,
  });
  return { id: row.id };
}

/** Contact messages per client address: enough for a person, not for a script. Shared by the page and `POST /contactForm`. */
export const CONTACT_RATE_LIMIT = RATE_LIMITS.contact.limit;

export type ContactOutcome =
  | { status: "sent" }
  | { status: "bot" }
  | { status: "invalid"; values: ContactValues; errors: ContactErrors }
  | { status: "rate-limited"; values: ContactValues; retryAfterMs: number }
  | { status: "failed"; values: ContactValues };

/**
 * What the contact page and `POST /contactForm` both do with a message:
 * validate, refuse bots quietly, count it against the visitor's limit, keep
 * it and email the store. Only a valid message counts against the limit.
 */
export async function receiveContactMessage(
  store: Pick<StoreRuntime, "db" | "jobs" | "config" | "emailSender" | "rateLimiter">,
  clientAddress: string,
  input: FormFields,
): Promise<ContactOutcome> {
  const { db, config, emailSender, rateLimiter } = store;
  const parsed = parseContactForm(input);
  if (parsed.isBot) return { status: "bot" };
  if (!parsed.ok) return { status: "invalid", values: parsed.values, errors: parsed.errors };

  const limit = await rateLimiter.hit(RATE_LIMITS.contact, clientAddress);
  if (!limit.allowed) return { status: "rate-limited", values: parsed.values, retryAfterMs: limit.retryAfterMs };

  try {
    await submitContactMessage(
      {
        db,
        sendEmail: (message) => sendEmailSafely(message, { outbox: store, sender: emailSender }),
        store: { name: config.STORE_NAME, email: config.STORE_EMAIL },
      },
      parsed.values,
    );
    return { status: "sent" };
  } catch (error) {
    logError("Contact message could not be stored", error);
    return { status: "failed", values: parsed.values };
  }
}

export function contactRateLimitMessage(retryAfterMs: number): string {
  return `You have sent several messages in a short time. Please wait ${waitText(retryAfterMs)} and try again, or call or email us.`;
}
