import { and, asc, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getProductByKey } from "~/catalog/queries.server";
import { productPath } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { stockAlerts } from "~/db/schema";
import type { ServiceDeps } from "~/store-runtime";
import { listUnsubscribeHeaders } from "~/mailing-list/newsletter-links.server";
import { storeLog } from "~/observability/logger.server";
import { deliverEmail } from "~/services/email/deliveries.server";
import { sendEmailSafely } from "~/services/email/index.server";
import { backInStockEmail, stockAlertConfirmationEmail } from "~/services/email/subscription-emails";
import type { RenderedEmail } from "~/services/email/templates";
import type { EmailMessage, EmailSender } from "~/services/email/types";
import { emailAddressSchema } from "~/utils/email-address.server";
import type { FormFields } from "~/utils/forms.server";
import { mapWithLimit } from "~/utils/promise-pool";
import { availabilityOf } from "./availability";
import { NOTIFY_ME_HONEYPOT_FIELD } from "./notify-me";
import {
  signStockAlertToken,
  stockAlertConfirmUrl,
  stockAlertUnsubscribeUrl,
  verifyStockAlertToken,
  type StockAlertLinkPurpose,
} from "./stock-alert-links.server";
import { stockLevel, stockLevels } from "./stock.server";

/**
 * "Notify me when available" (`stock_alerts`), double opt-in like the newsletter: asking on an
 * out-of-stock product stores the address as `pending` for that product and emails a signed confirmation
 * link; only its mailbox's owner can confirm. When the product is available again (a restock queues the
 * `stock.notify` job, app/stock/back-in-stock.server.ts), each `confirmed` alert is moved to `sent` by one
 * conditional update before its email is queued, so every subscriber gets exactly one email however many
 * times, or on how many processes at once, the job runs. Every email carries the alert's unsubscribe link
 * and the List-Unsubscribe headers; an unsubscribed alert gets nothing.
 */

type Logger = Pick<Console, "error">;

export interface StockAlertContext {
  /** Signs the links (the store's session secret; a key of its own is derived from it). */
  secret: string;
  /** The store's public address (PUBLIC_BASE_URL), for the links in the email. */
  baseUrl: string;
  storeName: string;
  /** The runtime's email sender (context.store.emailSender), or a test's. */
  sender: EmailSender;
  now?: Date;
  logger?: Logger;
}

/** A second confirmation email to the same address for the same product waits this long, so the form cannot flood a mailbox. */
export const STOCK_ALERT_RESEND_INTERVAL_MS = 10 * 60_000;

/* ---- the form ---- */

const formSchema = z.object({
  productKey: z.string().trim().max(300).catch(""),
  email: z.string().catch(""),
});
const emailSchema = emailAddressSchema();

export interface ParsedStockAlertForm {
  productKey: string;
  /** The address, trimmed; null when it is not one. */
  email: string | null;
}

/** Reads the form; never throws. */
export function parseStockAlertForm(input: FormFields | Record<string, unknown>): ParsedStockAlertForm {
  const { productKey, email } = formSchema.parse(input);
  const checked = emailSchema.safeParse(email);
  return { productKey, email: checked.success ? checked.data : null };
}

/** A filled honeypot: a script, not a person. Its request is answered like any other and dropped. */
export function isStockAlertBot(input: FormFields | Record<string, unknown>): boolean {
  const value = input[NOTIFY_ME_HONEYPOT_FIELD];
  return typeof value === "string" && value.trim() !== "";
}

/* ---- asking ---- */

/**
 * `sent`: the confirmation went out, or was not needed (already confirmed, or sent a moment ago): the same
 * answer either way, so nobody learns whether an address is on the list. `available`: the product is not
 * out of stock (buy it). `unknown`: no such product. `failed`: nothing could be sent (logged).
 */
export type StockAlertRequestOutcome = "sent" | "available" | "unknown" | "failed";

/**
 * Asks for one email when the product is back. The unique index on (product, lower(email)) decides new or
 * known (no read-then-insert race). A pending, unsubscribed or already notified alert gets a fresh
 * confirmation, at most one per STOCK_ALERT_RESEND_INTERVAL_MS; a confirmed one nothing.
 */
export async function requestStockAlert(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  input: { productKey: string; email: string },
  context: StockAlertContext,
): Promise<StockAlertRequestOutcome> {
  const { now = new Date(), logger = storeLog } = context;
  const address = input.email.trim();
  try {
    const product = await getProductByKey(db, input.productKey);
    if (!product) return "unknown";
    if (availabilityOf(await stockLevel(db, product.key)).kind !== "out") return "available";
    const inserted = await db
      .insert(stockAlerts)
      .values({ productKey: product.key, email: address, status: "pending", confirmationSentAt: now })
      .onConflictDoNothing()
      .returning({ id: stockAlerts.id });
    let id = inserted[0]?.id;
    if (id === undefined) {
      const [known] = await db
        .select({ id: stockAlerts.id, status: stockAlerts.status })
        .from(stockAlerts)
        .where(and(eq(stockAlerts.productKey, product.key), sql`lower(${stockAlerts.email}) = lower(${address})`));
      if (!known) return "failed";
      if (known.status === "confirmed") return "sent";
      const resendBefore = new Date(now.getTime() - STOCK_ALERT_RESEND_INTERVAL_MS);
      const claimed = await db
        .update(stockAlerts)
        .set({ status: "pending", confirmationSentAt: now })
        .where(
          and(
            eq(stockAlerts.id, known.id),
            ne(stockAlerts.status, "confirmed"),
            or(isNull(stockAlerts.confirmationSentAt), lt(stockAlerts.confirmationSentAt, resendBefore)),
          ),
        )
        .returning({ id: stockAlerts.id });
      // A confirmation went out a moment ago (or the address confirmed meanwhile): the same answer, no second copy.
      if (claimed.length === 0) return "sent";
      id = known.id;
    }
    const alert = { id, email: address };
    const links = { productUrl: `${context.baseUrl}${productPath(product)}`, unsubscribeUrl: unsubscribeUrlFor(context, id) };
    const confirmUrl = stockAlertConfirmUrl(context.baseUrl, signStockAlertToken(context.secret, "confirm", id, now));
    const rendered = stockAlertConfirmationEmail({ storeName: context.storeName, productTitle: product.title, confirmUrl, ...links });
    const result = await sendEmailSafely(stockAlertEmail(alert, rendered, links.unsubscribeUrl), {
      outbox: { db, jobs },
      sender: context.sender,
      logger,
    });
    // Queued counts: the retry loop sends it.
    return result.sent || result.queued ? "sent" : "failed";
  } catch (error) {
    logger.error("Notify me: the request could not be stored", error);
    return "failed";
  }
}

function unsubscribeUrlFor(context: Pick<StockAlertContext, "secret" | "baseUrl">, alertId: string): string {
  return stockAlertUnsubscribeUrl(context.baseUrl, signStockAlertToken(context.secret, "unsubscribe", alertId));
}

/** Every "Notify me" email: to the alert's address, with the List-Unsubscribe headers of its signed link. */
function stockAlertEmail(alert: { email: string }, content: RenderedEmail, unsubscribeUrl: string): EmailMessage {
  return { to: alert.email, ...content, headers: listUnsubscribeHeaders(unsubscribeUrl) };
}

/* ---- the links ---- */

export type LinkState = "valid" | "expired" | "invalid";

/**
 * What a link's page shows before its button is pressed: whether the link is good (signed, for this
 * purpose, not expired, for an alert that exists) and the product it is about. Changes nothing.
 */
export async function stockAlertLink(
  db: Database,
  secret: string,
  purpose: StockAlertLinkPurpose,
  token: unknown,
): Promise<{ state: LinkState; productTitle: string | null }> {
  const check = verifyStockAlertToken(secret, purpose, token);
  if (!check.ok) return { state: check.reason, productTitle: null };
  const [alert] = await db.select({ productKey: stockAlerts.productKey }).from(stockAlerts).where(eq(stockAlerts.id, check.alertId));
  if (!alert) return { state: "invalid", productTitle: null };
  const product = await getProductByKey(db, alert.productKey);
  return { state: "valid", productTitle: product?.title ?? null };
}

export type StockAlertConfirmOutcome = "confirmed" | "already-confirmed" | "expired" | "invalid";

/**
 * Confirms a pending alert with its signed link (an unsubscribed one stays unsubscribed). A product that
 * came back while the alert waited for its confirmation is announced at once (its `stock.notify` job).
 */
export async function confirmStockAlert(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  secret: string,
  token: unknown,
  now: Date = new Date(),
): Promise<StockAlertConfirmOutcome> {
  const check = verifyStockAlertToken(secret, "confirm", token, now);
  if (!check.ok) return check.reason;
  const [confirmed] = await db
    .update(stockAlerts)
    .set({ status: "confirmed", confirmedAt: now })
    .where(and(eq(stockAlerts.id, check.alertId), eq(stockAlerts.status, "pending")))
    .returning({ productKey: stockAlerts.productKey });
  if (confirmed) {
    if (availabilityOf(await stockLevel(db, confirmed.productKey)).kind !== "out")
      await jobs.send("stock.notify", { id: confirmed.productKey });
    return "confirmed";
  }
  const [row] = await db.select({ status: stockAlerts.status }).from(stockAlerts).where(eq(stockAlerts.id, check.alertId));
  return row?.status === "confirmed" || row?.status === "sent" ? "already-confirmed" : "invalid";
}

export type StockAlertUnsubscribeOutcome = "unsubscribed" | "invalid";

/** Ends the alert of a signed unsubscribe link: no email about its product, whatever its state; twice is fine. */
export async function unsubscribeStockAlert(
  db: Database,
  secret: string,
  token: unknown,
  now: Date = new Date(),
): Promise<StockAlertUnsubscribeOutcome> {
  const check = verifyStockAlertToken(secret, "unsubscribe", token);
  if (!check.ok) return "invalid";
  const [ended] = await db
    .update(stockAlerts)
    .set({ status: "unsubscribed", unsubscribedAt: sql`coalesce(${stockAlerts.unsubscribedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(stockAlerts.id, check.alertId))
    .returning({ id: stockAlerts.id });
  return ended ? "unsubscribed" : "invalid";
}

/* ---- back in stock ---- */

/** Alerts read per round of the job, and emails queued at once. */
const NOTIFY_BATCH = 200;
const SENDS_AT_ONCE = 5;

export class BackInStockEmailsLost extends Error {
  override readonly name = "BackInStockEmailsLost";
}

/**
 * The `stock.notify` job: if the product is available now, emails each confirmed subscriber once. Each
 * alert is claimed (`confirmed` → `sent`, one conditional update) before its email is queued under the
 * reference `back-in-stock:{alertId}`, so a second run, or a run on another process at the same time,
 * sends nothing more. An email that could be neither sent nor queued gives its alert back and the job
 * throws, to be retried. Says how many emails it queued.
 */
export async function notifyBackInStock(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  context: StockAlertContext,
  productKey: string,
): Promise<number> {
  const { logger = storeLog } = context;
  const product = await getProductByKey(db, productKey);
  if (!product) return 0;
  if (availabilityOf(await stockLevel(db, product.key)).kind === "out") return 0;
  const productUrl = `${context.baseUrl}${productPath(product)}`;
  let notified = 0;
  for (;;) {
    const waiting = await db
      .select({ id: stockAlerts.id })
      .from(stockAlerts)
      .where(and(eq(stockAlerts.productKey, product.key), eq(stockAlerts.status, "confirmed")))
      .orderBy(asc(stockAlerts.createdAt))
      .limit(NOTIFY_BATCH);
    if (waiting.length === 0) return notified;
    const outcomes = await mapWithLimit(waiting, SENDS_AT_ONCE, async ({ id }) => {
      const [claimed] = await db
        .update(stockAlerts)
        .set({ status: "sent", sentAt: context.now ?? new Date() })
        .where(and(eq(stockAlerts.id, id), eq(stockAlerts.status, "confirmed")))
        .returning({ id: stockAlerts.id, email: stockAlerts.email });
      // Another run took it first.
      if (!claimed) return "taken" as const;
      const unsubscribeUrl = unsubscribeUrlFor(context, claimed.id);
      const rendered = backInStockEmail({ storeName: context.storeName, productTitle: product.title, productUrl, unsubscribeUrl });
      const delivery = await deliverEmail({ db, jobs }, context.sender, stockAlertEmail(claimed, rendered, unsubscribeUrl), {
        reference: `back-in-stock:${claimed.id}`,
        logger,
      }).catch(() => ({ status: "failed" }) as const);
      if (delivery.status !== "failed") return "sent" as const;
      await db
        .update(stockAlerts)
        .set({ status: "confirmed", sentAt: null })
        .where(and(eq(stockAlerts.id, claimed.id), eq(stockAlerts.status, "sent")))
        .catch((error: unknown) => logger.error(`Notify me: alert ${claimed.id} could not be given back`, error));
      return "lost" as const;
    });
    notified += outcomes.filter((outcome) => outcome === "sent").length;
    const lost = outcomes.filter((outcome) => outcome === "lost").length;
    if (lost > 0) throw new BackInStockEmailsLost(`${product.key}: ${lost} back-in-stock emails could not be queued; retried later`);
  }
}

/**
 * What a process does at start: a `stock.notify` job for every product available again whose confirmed
 * subscribers were not told yet (a job lost with a process that died). Says how many products.
 */
export async function scheduleBackInStock({ db, jobs }: Pick<ServiceDeps, "db" | "jobs">): Promise<number> {
  const waiting = await db
    .selectDistinct({ productKey: stockAlerts.productKey })
    .from(stockAlerts)
    .where(eq(stockAlerts.status, "confirmed"));
  const levels = await stockLevels(
    db,
    waiting.map(({ productKey }) => productKey),
  );
  const due = [...levels].filter(([, level]) => availabilityOf(level).kind !== "out").map(([key]) => key);
  for (const id of due) await jobs.send("stock.notify", { id });
  return due.length;
}
