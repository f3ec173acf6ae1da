import { getConfig, type Config } from "~/config.server";
import { connectedOutboxDatabase, outboxWriter } from "./outbox.server";
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

let sender: EmailSender | undefined;

/** The process's email sender, chosen once from the configuration. */
export function getEmailSender(): EmailSender {
  sender ??= selectEmailSender(emailConfigFrom(getConfig()), outboxWriter(connectedOutboxDatabase));
  return sender;
}

/** True when email goes to the offline outbox instead of a real provider. */
export function isOutboxActive(): boolean {
  return getEmailSender().isStandIn;
}

export type SafeSendResult = { sent: true; messageId: string } | { sent: false };

type Logger = Pick<Console, "error">;

/**
 * Sends and never throws: the spec has email failures only logged, so an
 * order or a contact message never fails because the mail did.
 */
export async function sendEmailSafely(
  message: EmailMessage,
  { sender: chosen, logger = console }: { sender?: EmailSender; logger?: Logger } = {},
): Promise<SafeSendResult> {
  try {
    const active = chosen ?? getEmailSender();
    const { messageId } = await active.send(message);
    return { sent: true, messageId };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The tag says what kind of mail failed; recipients and bodies stay out of the log.
    logger.error(`Email not sent (${message.tag ?? "untagged"}): ${reason}`, error);
    return { sent: false };
  }
}
