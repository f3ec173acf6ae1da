import { getConfig, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { outboxWriter } from "./outbox.server";
import { selectEmailSender, type EmailConfig } from "./select-email-sender.server";
import type { EmailMessage, EmailSender } from "./types";

/**
 * The app's one way to send email: Postmark when POSTMARK_SERVER_TOKEN is set,
 * otherwise the offline outbox (the `email_outbox` table, readable at /dev/outbox).
 */

export function emailConfigFrom(config: Pick<Config, "POSTMARK_SERVER_TOKEN" | "EMAIL_FROM" | "STORE_EMAIL">): EmailConfig {
  return {
    postmarkServerToken: config.POSTMARK_SERVER_TOKEN,
    emailFrom: config.EMAIL_FROM ?? config.STORE_EMAIL,
  };
}

/** The email sender for the configuration: Postmark, or the offline outbox kept in this database. */
export function emailSenderFor(db: Database): EmailSender {
  return selectEmailSender(
    emailConfigFrom(getConfig()),
    outboxWriter(() => db),
  );
}

/** True when email goes to the offline outbox instead of a real provider. */
export function isOutboxActive(): boolean {
  return !emailConfigFrom(getConfig()).postmarkServerToken?.trim();
}

export type SafeSendResult = { sent: true; messageId: string } | { sent: false };

type Logger = Pick<Console, "error">;

/**
 * Sends and never throws: the spec has email failures only logged, so an
 * order or a contact message never fails because the mail did.
 */
export async function sendEmailSafely(
  message: EmailMessage,
  { db, sender: chosen, logger = console }: { db?: Database; sender?: EmailSender; logger?: Logger },
): Promise<SafeSendResult> {
  try {
    if (!chosen && !db) throw new Error("No email sender: pass the database (for the outbox) or a sender.");
    const active = chosen ?? emailSenderFor(db!);
    const { messageId } = await active.send(message);
    return { sent: true, messageId };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The tag says what kind of mail failed; recipients and bodies stay out of the log.
    logger.error(`Email not sent (${message.tag ?? "untagged"}): ${reason}`, error);
    return { sent: false };
  }
}
