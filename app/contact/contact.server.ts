import type { Database } from "~/db/database.server";
import { contactMessages } from "~/db/schema";
import type { EmailMessage } from "~/services/email/types";
import { contactMessageEmail } from "~/services/email/templates";
import type { ContactValues } from "./contact";

type SendEmail = (message: EmailMessage) => Promise<unknown>;

/**
 * Keeps the message, then emails the store. Storing is what must succeed (it
 * throws when it cannot); the email is sent with a sender that only logs its
 * failures, as the spec asks.
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
