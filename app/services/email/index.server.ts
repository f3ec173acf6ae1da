import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { deliverEmail, type Outbox } from "./deliveries.server";
import { outboxWriter } from "./outbox.server";
import { selectEmailSender, type EmailConfig } from "./select-email-sender.server";
import type { EmailMessage, EmailSender } from "./types";
import { storeLog } from "~/observability/logger.server";

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

/**
 * The email sender the configuration chooses: Postmark, or the offline outbox kept in this database. Built
 * once, with the runtime's services (`context.store.emailSender`), and handed to the code that sends.
 */
export function emailSenderFor(config: Config, db: Database): EmailSender {
  return selectEmailSender(
    emailConfigFrom(config),
    outboxWriter(() => db),
  );
}

/** True when email goes to the offline outbox instead of a real provider. */
export function isOutboxActive(config: Config): boolean {
  return !emailConfigFrom(config).postmarkServerToken?.trim();
}

export type SafeSendResult =
  | { sent: true; messageId: string }
  /** Not sent: `queued` when it waits in the delivery queue for another attempt, false when it is lost (logged). */
  | { sent: false; queued: boolean };

type Logger = Pick<Console, "error">;

/**
 * Sends and never throws: an order or a contact message never fails because
 * the mail did. With the database the message goes through the delivery
 * queue (`deliveries.server.ts`): one attempt now, and if that fails it is
 * kept and sent again by its job (deliveries.server.ts). Without it (tests) it is one
 * attempt, logged when it fails.
 */
export async function sendEmailSafely(
  message: EmailMessage,
  { outbox, sender, logger = storeLog }: { outbox?: Outbox; sender: EmailSender; logger?: Logger },
): Promise<SafeSendResult> {
  if (outbox) {
    const result = await Promise.resolve()
      .then(() => deliverEmail(outbox, sender, message, { logger }))
      .catch((error: unknown) => {
        logger.error(`Email not sent (${message.tag ?? "untagged"}): ${String(error)}`, error);
        return { status: "failed" } as const;
      });
    if (result.status === "sent") return { sent: true, messageId: result.messageId };
    return { sent: false, queued: result.status === "queued" };
  }
  try {
    const { messageId } = await sender.send(message);
    return { sent: true, messageId };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The tag says what kind of mail failed; recipients and bodies stay out of the log.
    logger.error(`Email not sent (${message.tag ?? "untagged"}): ${reason}`, error);
    return { sent: false, queued: false };
  }
}
