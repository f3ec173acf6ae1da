import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import type { ServiceDeps } from "~/store-runtime";
import { mailingList } from "~/db/schema";
import { sendEmailSafely } from "~/services/email/index.server";
import { newsletterConfirmationEmail } from "~/services/email/subscription-emails";
import type { EmailMessage, EmailSender } from "~/services/email/types";
import {
  listUnsubscribeHeaders,
  newsletterConfirmUrl,
  newsletterUnsubscribeUrl,
  signNewsletterToken,
  verifyNewsletterToken,
} from "./newsletter-links.server";
import { storeLog } from "~/observability/logger.server";

/**
 * The mailing list with double opt-in. Signing up stores the address as
 * `pending` and emails it a signed confirmation link; only the owner of the
 * mailbox can confirm, and only `confirmed` addresses get newsletter mail.
 * Every newsletter mail, the confirmation included, carries an unsubscribe
 * link and the List-Unsubscribe headers (`newsletterEmail`).
 */

export type SubscribeOutcome = "subscribed" | "duplicate" | "failed";

type Logger = Pick<Console, "error">;

export interface NewsletterContext {
  /** Signs the links (the store's session secret; a key of its own is derived from it). */
  secret: string;
  /** The store's public address (PUBLIC_BASE_URL), for the links in the email. */
  baseUrl: string;
  storeName: string;
  /** What sends the confirmation: the runtime's sender (context.store.emailSender), or a test's. */
  sender: EmailSender;
  now?: Date;
  logger?: Logger;
}

/** A second confirmation email to the same address waits this long, so a form cannot be used to flood a mailbox. */
export const CONFIRMATION_RESEND_INTERVAL_MS = 10 * 60_000;

/**
 * Adds an address as pending and emails it the confirmation link. The unique
 * index on lower(email) decides new or known (no read-then-insert race). A
 * confirmed address is a duplicate (the spec's message); a pending or
 * unsubscribed one gets a fresh confirmation email, at most one per
 * CONFIRMATION_RESEND_INTERVAL_MS, and the same answer as a new one.
 */
export async function subscribe(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  email: string,
  context: NewsletterContext,
): Promise<SubscribeOutcome> {
  const { now = new Date(), logger = storeLog } = context;
  const address = email.trim();
  try {
    const inserted = await db
      .insert(mailingList)
      .values({ email: address, status: "pending", confirmationSentAt: now })
      .onConflictDoNothing()
      .returning({ id: mailingList.id });
    let id = inserted[0]?.id;
    if (id === undefined) {
      const [known] = await db
        .select({ id: mailingList.id, status: mailingList.status })
        .from(mailingList)
        .where(sql`lower(${mailingList.email}) = lower(${address})`);
      if (!known) return "failed";
      if (known.status === "confirmed") return "duplicate";
      const resendBefore = new Date(now.getTime() - CONFIRMATION_RESEND_INTERVAL_MS);
      const claimed = await db
        .update(mailingList)
        .set({ status: "pending", confirmationSentAt: now })
        .where(
          and(
            eq(mailingList.id, known.id),
            ne(mailingList.status, "confirmed"),
            or(isNull(mailingList.confirmationSentAt), lt(mailingList.confirmationSentAt, resendBefore)),
          ),
        )
        .returning({ id: mailingList.id });
      // A confirmation went out a moment ago: the visitor is told the same, the mailbox gets no second copy.
      if (claimed.length === 0) return "subscribed";
      id = known.id;
    }
    const sent = await sendConfirmation({ db, jobs }, { id, email: address }, context);
    return sent ? "subscribed" : "failed";
  } catch (error) {
    logger.error("Mailing list sign-up failed", error);
    return "failed";
  }
}

async function sendConfirmation(
  outbox: Pick<ServiceDeps, "db" | "jobs">,
  subscriber: { id: number; email: string },
  context: NewsletterContext,
): Promise<boolean> {
  const confirmUrl = newsletterConfirmUrl(context.baseUrl, signNewsletterToken(context.secret, "confirm", subscriber.id, context.now));
  const rendered = newsletterConfirmationEmail({
    storeName: context.storeName,
    confirmUrl,
    unsubscribeUrl: unsubscribeUrlFor(context, subscriber.id),
  });
  const message = newsletterEmail(context, subscriber, rendered);
  const result = await sendEmailSafely(message, {
    outbox,
    sender: context.sender,
    logger: context.logger ?? storeLog,
  });
  // Queued counts: the retry loop sends it; the visitor is not asked to sign up again.
  return result.sent || result.queued;
}

function unsubscribeUrlFor(context: Pick<NewsletterContext, "secret" | "baseUrl">, subscriberId: number): string {
  return newsletterUnsubscribeUrl(context.baseUrl, signNewsletterToken(context.secret, "unsubscribe", subscriberId));
}

/**
 * The one way to build a newsletter mail for a subscriber: it always carries
 * the List-Unsubscribe headers with the subscriber's signed unsubscribe link
 * (the body's own unsubscribe link is the template's job).
 */
export function newsletterEmail(
  context: Pick<NewsletterContext, "secret" | "baseUrl">,
  subscriber: { id: number; email: string },
  content: { subject: string; text: string; html?: string; tag?: string },
): EmailMessage {
  return {
    to: subscriber.email,
    subject: content.subject,
    text: content.text,
    ...(content.html === undefined ? {} : { html: content.html }),
    ...(content.tag === undefined ? {} : { tag: content.tag }),
    headers: listUnsubscribeHeaders(unsubscribeUrlFor(context, subscriber.id)),
  };
}

export type ConfirmOutcome = "confirmed" | "already-confirmed" | "expired" | "invalid";

/** Confirms a pending address with its signed link. An unsubscribed address stays unsubscribed (it must sign up again). */
export async function confirmSubscription(db: Database, secret: string, token: unknown, now: Date = new Date()): Promise<ConfirmOutcome> {
  const check = verifyNewsletterToken(secret, "confirm", token, now);
  if (!check.ok) return check.reason;
  const confirmed = await db
    .update(mailingList)
    .set({ status: "confirmed", confirmedAt: now })
    .where(and(eq(mailingList.id, check.subscriberId), eq(mailingList.status, "pending")))
    .returning({ id: mailingList.id });
  if (confirmed.length > 0) return "confirmed";
  const [row] = await db.select({ status: mailingList.status }).from(mailingList).where(eq(mailingList.id, check.subscriberId));
  return row?.status === "confirmed" ? "already-confirmed" : "invalid";
}

export type UnsubscribeOutcome = "unsubscribed" | "invalid";

/** Unsubscribes the address of a signed unsubscribe link; doing it twice is fine. */
export async function unsubscribeWithToken(
  db: Database,
  secret: string,
  token: unknown,
  now: Date = new Date(),
): Promise<UnsubscribeOutcome> {
  const check = verifyNewsletterToken(secret, "unsubscribe", token);
  if (!check.ok) return "invalid";
  const rows = await db
    .update(mailingList)
    .set({ status: "unsubscribed", unsubscribedAt: now })
    .where(eq(mailingList.id, check.subscriberId))
    .returning({ id: mailingList.id });
  return rows.length > 0 ? "unsubscribed" : "invalid";
}

/** Whether a link is worth showing its page's button for: well signed, for this purpose, not expired. */
export function newsletterLinkState(secret: string, purpose: "confirm" | "unsubscribe", token: unknown): "valid" | "expired" | "invalid" {
  const check = verifyNewsletterToken(secret, purpose, token);
  return check.ok ? "valid" : check.reason;
}

/** The addresses newsletter mail may go to: confirmed ones only. */
export async function confirmedSubscribers(db: Database): Promise<Array<{ id: number; email: string }>> {
  return db
    .select({ id: mailingList.id, email: mailingList.email })
    .from(mailingList)
    .where(eq(mailingList.status, "confirmed"))
    .orderBy(mailingList.id);
}

const UNIQUE_VIOLATION = "23505";

/** PostgreSQL's unique_violation, whether the driver (postgres.js, PGlite) or drizzle's wrapper threw it. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    if ((current as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
