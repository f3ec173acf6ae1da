import { desc, eq } from "drizzle-orm";
import { getConfig, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { emailOutbox } from "~/db/schema";
import { getDb } from "~/runtime.server";
import { selectEmailSender, type EmailConfig } from "./select-email-sender.server";
import type { EmailMessage, EmailSender, OutboxRow, WriteOutbox } from "./types";

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

/** Writes one outbox row through the given database (or the app's own). */
export function outboxWriter(database: () => Promise<Database> = getDb): WriteOutbox {
  return async (row: OutboxRow) => {
    const db = await database();
    const [inserted] = await db
      .insert(emailOutbox)
      .values({
        toAddress: row.to,
        fromAddress: row.from,
        subject: row.subject,
        textBody: row.text,
        htmlBody: row.html,
        tag: row.tag,
      })
      .returning({ id: emailOutbox.id });
    return { id: inserted.id };
  };
}

let sender: EmailSender | undefined;

/** The process's email sender, chosen once from the configuration. */
export function getEmailSender(): EmailSender {
  sender ??= selectEmailSender(emailConfigFrom(getConfig()), outboxWriter());
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

export type OutboxEmail = typeof emailOutbox.$inferSelect;
export type OutboxSummary = Pick<OutboxEmail, "id" | "toAddress" | "subject" | "tag" | "createdAt">;

const OUTBOX_PAGE_SIZE = 100;

/** The newest outbox emails first. */
export async function listOutboxEmails(db: Database, limit = OUTBOX_PAGE_SIZE): Promise<OutboxSummary[]> {
  return db
    .select({
      id: emailOutbox.id,
      toAddress: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      tag: emailOutbox.tag,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(limit);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One outbox email, or null (also for an id that is not a uuid, so a typo is a 404, not a 500). */
export async function findOutboxEmail(db: Database, id: string): Promise<OutboxEmail | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return row ?? null;
}
