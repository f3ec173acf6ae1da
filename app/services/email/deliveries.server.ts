import { and, eq, inArray, sql } from "drizzle-orm";
import { dueRowsLocked } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { emailDeliveries, type EmailDeliveryStatus } from "~/db/schema";
import type { JobSender } from "~/jobs/queue.server";
import type { EmailMessage, EmailSender } from "./types";
import { log, storeLog } from "~/observability/logger.server";
import { currentRequestId, withRequestId } from "~/observability/request-context.server";
import { emails } from "~/observability/metrics.server";

/**
 * The delivery queue (the outbox pattern, table `email_deliveries`). Every
 * email is written here before it is sent, so none is lost when the provider
 * fails or the process stops: the caller's first attempt is made at once, and
 * whatever did not go out is sent again with a growing delay, by an `email.deliver` job on the store's job queue (app/jobs) set for
 * the row's next attempt. The row stays the record: its status, attempt count
 * and next attempt time; the job only says when to look at it. The caller
 * never waits for more than that one attempt, and never sees an exception.
 * An email queued while the store answers a request records that request's
 * id (`request_id`), which every attempt hands to the provider and logs.
 */

/** Where emails wait for their attempts: the delivery rows in the database, and the job queue that says when to look. */
export interface Outbox {
  db: Database;
  jobs: JobSender;
}

export interface DeliveryPolicy {
  /** Attempts in all (the first one included) before an email is given up as `failed`. */
  maxAttempts: number;
  /** How long a claimed row is left alone by other processes while it is being sent. */
  leaseMs: number;
  /** The wait after the n-th failed attempt (n from 1). */
  backoffMs: (attempt: number) => number;
}

const MINUTE = 60_000;

/** 1, 4, 16, 64 minutes, then every 4 hours: 8 attempts over about a day. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxAttempts: 8,
  leaseMs: 5 * MINUTE,
  backoffMs: (attempt) => Math.min(4 ** Math.max(0, attempt - 1) * MINUTE, 240 * MINUTE),
};

type Logger = Pick<Console, "error">;

export type DeliveryResult =
  /** Sent on the first attempt. */
  | { status: "sent"; id: string | null; messageId: string }
  /** Not sent yet: kept in the queue and retried. */
  | { status: "queued"; id: string }
  /** An email with this reference exists already (sent, queued or given up). */
  | { status: "duplicate"; existing: EmailDeliveryStatus }
  /** Neither sent nor kept (the database and the provider both failed); logged. */
  | { status: "failed" };

interface DeliveryOptions {
  /** One email per reference (e.g. `order-confirmation:{orderId}`): a second delivery of it is a duplicate. */
  reference?: string;
  now?: Date;
  policy?: DeliveryPolicy;
  logger?: Logger;
  /** How long the caller waits for the first attempt before it is told `queued` (the attempt carries on). */
  waitMs?: number;
}

/** The longest a page waits for an email's first attempt. */
export const FIRST_ATTEMPT_WAIT_MS = 4_000;

/**
 * Queues the message and makes its first attempt. The row is written already
 * claimed (attempt 1, leased), so no job sends it again while this
 * attempt runs, and a job set for the end of the lease picks it up if the
 * process dies before it is marked.
 */
export async function deliverEmail(
  { db, jobs }: Outbox,
  sender: EmailSender,
  message: EmailMessage,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const { reference, now = new Date(), policy = DEFAULT_DELIVERY_POLICY, logger = storeLog, waitMs = FIRST_ATTEMPT_WAIT_MS } = options;
  const requestId = currentRequestId();
  if (requestId !== undefined) message = { ...message, requestId };
  let id: string;
  try {
    const inserted = await db
      .insert(emailDeliveries)
      .values({
        reference: reference ?? null,
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html ?? null,
        tag: message.tag ?? null,
        replyTo: message.replyTo ?? null,
        headers: message.headers ?? null,
        requestId: requestId ?? null,
        status: "pending",
        attempts: 1,
        nextAttemptAt: new Date(now.getTime() + policy.leaseMs),
      })
      .onConflictDoNothing()
      .returning({ id: emailDeliveries.id });
    if (inserted.length === 0) {
      const existing = reference ? await deliveryStatus(db, reference) : null;
      return { status: "duplicate", existing: existing ?? "pending" };
    }
    id = inserted[0].id;
  } catch (error) {
    // The queue is out of reach (the database): still try once, so a reachable provider gets the mail.
    logger.error(`Email queue unavailable (${message.tag ?? "untagged"}): ${describe(error)}`, error);
    return sendOnce(sender, message, logger).then((sent) => (sent ? { status: "sent", id: null, messageId: sent } : { status: "failed" }));
  }
  // Looked at again when the lease runs out, in case this process dies before the attempt is recorded.
  await jobs.send("email.deliver", { id }, { startAfter: new Date(now.getTime() + policy.leaseMs) }).catch((error: unknown) => {
    logger.error(`Email delivery ${id}: could not be scheduled (the next start schedules it): ${describe(error)}`);
  });

  const attempt = (async (): Promise<DeliveryResult> => {
    let messageId: string;
    try {
      ({ messageId } = await sender.send(message));
    } catch (error) {
      logger.error(`Email not sent (${message.tag ?? "untagged"}), queued for another attempt: ${describe(error)}`, error);
      await markFailedAttempt({ db, jobs }, id, 1, error, now, policy, logger);
      return { status: "queued", id };
    }
    await markSent(db, id, messageId, now, logger, message.tag);
    return { status: "sent", id, messageId };
  })();
  // A slow provider does not hold the caller (a shopper's page) longer than this: the attempt goes on and marks its row.
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<DeliveryResult>((resolve) => {
    timer = setTimeout(() => resolve({ status: "queued", id }), waitMs);
  });
  return Promise.race([attempt, slow]).finally(() => clearTimeout(timer));
}

async function sendOnce(sender: EmailSender, message: EmailMessage, logger: Logger): Promise<string | null> {
  try {
    const { messageId } = await sender.send(message);
    emails.inc({ outcome: "sent" });
    return messageId;
  } catch (error) {
    // Not queued (the queue was out of reach): this was its only attempt.
    emails.inc({ outcome: "given_up" });
    logger.error(`Email not sent (${message.tag ?? "untagged"}): ${describe(error)}`, error);
    return null;
  }
}

/**
 * The `email.deliver` job: sends the queued email if its attempt is due. One
 * that is not due yet (another process holds it, or its time has not come) is
 * looked at again at its time.
 */
export async function deliverQueuedEmail(outbox: Outbox, sender: EmailSender, id: string): Promise<void> {
  const { claimed } = await retryDueEmails(outbox, sender, { ids: [id] });
  if (claimed > 0) return;
  const [row] = await outbox.db
    .select({ status: emailDeliveries.status, nextAttemptAt: emailDeliveries.nextAttemptAt })
    .from(emailDeliveries)
    .where(eq(emailDeliveries.id, id));
  if (row?.status === "pending") await outbox.jobs.send("email.deliver", { id }, { startAfter: row.nextAttemptAt });
}

/** Schedules every email still waiting for an attempt: what a process does at start, for rows whose job was lost (a crash mid-attempt). */
export async function scheduleQueuedEmails({ db, jobs }: Outbox): Promise<number> {
  const pending = await db
    .select({ id: emailDeliveries.id, nextAttemptAt: emailDeliveries.nextAttemptAt })
    .from(emailDeliveries)
    .where(eq(emailDeliveries.status, "pending"));
  for (const { id, nextAttemptAt } of pending) await jobs.send("email.deliver", { id }, { startAfter: nextAttemptAt });
  return pending.length;
}

export interface RetryReport {
  claimed: number;
  sent: number;
  /** Failed again, to be retried later. */
  rescheduled: number;
  /** Given up after the last attempt. */
  failed: number;
}

/**
 * Sends the queued emails whose time has come (of `ids` when given), at most
 * `limit` per call. Rows are claimed in one statement (`for update skip
 * locked` and a lease on `next_attempt_at`), so several server processes
 * never send the same email twice at the same time.
 */
export async function retryDueEmails(
  { db, jobs }: Outbox,
  sender: EmailSender,
  {
    now = new Date(),
    limit = 20,
    policy = DEFAULT_DELIVERY_POLICY,
    logger = storeLog,
    ids,
  }: { now?: Date; limit?: number; policy?: DeliveryPolicy; logger?: Logger; ids?: string[] } = {},
): Promise<RetryReport> {
  const due = dueRowsLocked(db, emailDeliveries.id, {
    dueAt: emailDeliveries.nextAttemptAt,
    asOf: now,
    where: and(eq(emailDeliveries.status, "pending"), ids ? inArray(emailDeliveries.id, ids) : undefined),
    limit,
  });
  const claimed = await db
    .update(emailDeliveries)
    .set({ attempts: sql`${emailDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + policy.leaseMs) })
    .where(and(due, eq(emailDeliveries.status, "pending")))
    .returning();

  // Looked at again when the lease runs out, should this process die or lose the database mid-send.
  for (const row of claimed) await jobs.send("email.deliver", { id: row.id }, { startAfter: row.nextAttemptAt });

  const report: RetryReport = { claimed: claimed.length, sent: 0, rescheduled: 0, failed: 0 };
  for (const row of claimed) {
    // Sent for the request that queued it: the provider's metadata and the log lines name it (a start-up's job names none).
    await withRequestId(row.requestId ?? undefined, async () => {
      const message: EmailMessage = {
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        ...(row.htmlBody === null ? {} : { html: row.htmlBody }),
        ...(row.tag === null ? {} : { tag: row.tag }),
        ...(row.replyTo === null ? {} : { replyTo: row.replyTo }),
        ...(row.headers === null ? {} : { headers: row.headers }),
        ...(row.requestId === null ? {} : { requestId: row.requestId }),
      };
      try {
        const { messageId } = await sender.send(message);
        await markSent(db, row.id, messageId, now, logger, row.tag ?? undefined);
        report.sent += 1;
      } catch (error) {
        const outcome = await markFailedAttempt({ db, jobs }, row.id, row.attempts, error, now, policy, logger);
        report[outcome] += 1;
      }
    });
  }
  return report;
}

/** Sent: the bodies are cleared (the provider, or the offline outbox, keeps the message), the row stays as the record. */
async function markSent(db: Database, id: string, messageId: string, now: Date, logger: Logger, tag: string | undefined): Promise<void> {
  // The line that says an email left, with its request's id when it has one (`log` adds it).
  log("info", "email sent", { deliveryId: id, messageId, tag: tag ?? "untagged" });
  emails.inc({ outcome: "sent" });
  try {
    await db
      .update(emailDeliveries)
      .set({ status: "sent", sentAt: now, messageId, lastError: null, textBody: "", htmlBody: null, headers: null })
      .where(eq(emailDeliveries.id, id));
  } catch (error) {
    // Sent but not marked: once the lease runs out it may be sent again (at least once, never lost).
    logger.error(`Email delivery ${id}: sent, but could not be marked as sent: ${describe(error)}`);
  }
}

async function markFailedAttempt(
  { db, jobs }: Outbox,
  id: string,
  attempts: number,
  error: unknown,
  now: Date,
  policy: DeliveryPolicy,
  logger: Logger,
): Promise<"rescheduled" | "failed"> {
  const givingUp = attempts >= policy.maxAttempts;
  emails.inc({ outcome: givingUp ? "given_up" : "failed" });
  const nextAttemptAt = new Date(now.getTime() + (givingUp ? 0 : policy.backoffMs(attempts)));
  try {
    await db
      .update(emailDeliveries)
      .set({ status: givingUp ? "failed" : "pending", lastError: describe(error).slice(0, 1000), nextAttemptAt })
      .where(eq(emailDeliveries.id, id));
  } catch (markError) {
    // The row stays pending and leased: it is sent once the lease has run out, nothing is lost.
    logger.error(`Email delivery ${id}: could not record the failed attempt: ${describe(markError)}`);
  }
  if (!givingUp) {
    await jobs.send("email.deliver", { id }, { startAfter: nextAttemptAt }).catch((queueError: unknown) => {
      // Still pending: the next start of the store schedules every pending row.
      logger.error(`Email delivery ${id}: the next attempt could not be scheduled: ${describe(queueError)}`);
    });
  }
  if (givingUp) logger.error(`Email delivery ${id}: given up after ${attempts} attempts: ${describe(error)}`);
  return givingUp ? "failed" : "rescheduled";
}

/** The delivery state of the email with this reference, or null when there is none. */
export async function deliveryStatus(db: Database, reference: string): Promise<EmailDeliveryStatus | null> {
  const [row] = await db.select({ status: emailDeliveries.status }).from(emailDeliveries).where(eq(emailDeliveries.reference, reference));
  return row?.status ?? null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
