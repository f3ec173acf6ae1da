import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { emailOutbox } from "~/db/schema";
import type { OutboxRow, WriteOutbox } from "./types";

/**
 * The offline outbox: the `email_outbox` table the stand-in sender writes to
 * and /dev/outbox reads.
 */

/** Writes one outbox row through the database the caller names (read when the row is written). */
export function outboxWriter(database: () => Database): WriteOutbox {
  return async (row: OutboxRow) => {
    const [inserted] = await database()
      .insert(emailOutbox)
      .values({
        toAddress: row.to,
        fromAddress: row.from,
        subject: row.subject,
        textBody: row.text,
        htmlBody: row.html,
        tag: row.tag,
        headers: row.headers,
      })
      .returning({ id: emailOutbox.id });
    return { id: inserted.id };
  };
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
