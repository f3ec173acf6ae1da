import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { emailDeliveries, type EmailDeliveryStatus } from "~/db/schema";
import type { EmailMessage, EmailSender } from "./types";

/**
 * The delivery queue (the outbox pattern, table `email_deliveries`). Every
 * email is written here before it is sent, so none is lost when the provider
 * fails or the process stops: the caller's first attempt is made at once, and
 * whatever did not go out is sent again by the retry loop with a growing
 * delay. The caller never waits for more than that one attempt, and never
 * sees an exception.
 */

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
 * claimed (attempt 1, leased), so the retry loop leaves it alone while this
 * attempt runs, and picks it up if the process dies before it is marked.
 */
export async function deliverEmail(
  db: Database,
  sender: EmailSender,
  message: EmailMessage,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const { reference, now = new Date(), policy = DEFAULT_DELIVERY_POLICY, logger = console, waitMs = FIRST_ATTEMPT_WAIT_MS } = options;
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

  const attempt = (async (): Promise<DeliveryResult> => {
    let messageId: string;
    try {
      ({ messageId } = await sender.send(message));
    } catch (error) {
      logger.error(`Email not sent (${message.tag ?? "untagged"}), queued for another attempt: ${describe(error)}`, error);
      await markFailedAttempt(db, id, 1, error, now, policy, logger);
      return { status: "queued", id };
    }
    await markSent(db, id, messageId, now, logger);
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
    return (await sender.send(message)).messageId;
  } catch (error) {
    logger.error(`Email not sent (${message.tag ?? "untagged"}): ${describe(error)}`, error);
    return null;
  }
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
 * Sends the queued emails whose time has come, at most `limit` per call.
 * Rows are claimed in one statement (`for update skip locked` and a lease on
 * `next_attempt_at`), so several server processes running this loop never
 * send the same email twice at the same time.
 */
export async function retryDueEmails(
  db: Database,
  sender: EmailSender,
  {
    now = new Date(),
    limit = 20,
    policy = DEFAULT_DELIVERY_POLICY,
    logger = console,
  }: { now?: Date; limit?: number; policy?: DeliveryPolicy; logger?: Logger } = {},
): Promise<RetryReport> {
  const due = db
    .select({ id: emailDeliveries.id })
    .from(emailDeliveries)
    .where(and(eq(emailDeliveries.status, "pending"), lte(emailDeliveries.nextAttemptAt, now)))
    .orderBy(asc(emailDeliveries.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(emailDeliveries)
    .set({ attempts: sql`${emailDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + policy.leaseMs) })
    .where(and(inArray(emailDeliveries.id, due), eq(emailDeliveries.status, "pending")))
    .returning();

  const report: RetryReport = { claimed: claimed.length, sent: 0, rescheduled: 0, failed: 0 };
  for (const row of claimed) {
    const message: EmailMessage = {
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      ...(row.htmlBody === null ? {} : { html: row.htmlBody }),
      ...(row.tag === null ? {} : { tag: row.tag }),
      ...(row.replyTo === null ? {} : { replyTo: row.replyTo }),
      ...(row.headers === null ? {} : { headers: row.headers }),
    };
    try {
      const { messageId } = await sender.send(message);
      await markSent(db, row.id, messageId, now, logger);
      report.sent += 1;
    } catch (error) {
      const outcome = await markFailedAttempt(db, row.id, row.attempts, error, now, policy, logger);
      report[outcome] += 1;
    }
  }
  return report;
}

/** Sent: the bodies are cleared (the provider, or the offline outbox, keeps the message), the row stays as the record. */
async function markSent(db: Database, id: string, messageId: string, now: Date, logger: Logger): Promise<void> {
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
  db: Database,
  id: string,
  attempts: number,
  error: unknown,
  now: Date,
  policy: DeliveryPolicy,
  logger: Logger,
): Promise<"rescheduled" | "failed"> {
  const givingUp = attempts >= policy.maxAttempts;
  try {
    await db
      .update(emailDeliveries)
      .set({
        status: givingUp ? "failed" : "pending",
        lastError: describe(error).slice(0, 1000),
        nextAttemptAt: new Date(now.getTime() + (givingUp ? 0 : policy.backoffMs(attempts))),
      })
      .where(eq(emailDeliveries.id, id));
  } catch (markError) {
    // The lease runs out and the loop tries again: nothing is lost.
    logger.error(`Email delivery ${id}: could not record the failed attempt: ${describe(markError)}`);
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

export interface RetryLoop {
  stop(): void;
  /** Runs one pass now (what the timer does); resolves when it is done. */
  runOnce(): Promise<void>;
}

/**
 * Runs `retryDueEmails` every `intervalMs` in this process. The timer does not
 * keep the process alive, a pass never overlaps the previous one, and a
 * failing pass (the database restarting) is logged and tried again next time.
 */
export function startRetryLoop(
  run: () => Promise<unknown>,
  { intervalMs = 30_000, logger = console }: { intervalMs?: number; logger?: Pick<Console, "warn"> } = {},
): RetryLoop {
  let running: Promise<void> | null = null;
  const runOnce = () => {
    running ??= Promise.resolve()
      .then(run)
      .then(() => undefined)
      .catch((error: unknown) => logger.warn(`Email retry pass failed: ${describe(error)}`))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
