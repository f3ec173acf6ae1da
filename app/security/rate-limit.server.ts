import { and, eq, gt, lte, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { rateLimitCounters } from "~/db/schema";
import { addressKey } from "~/http/client-address";
import { log, serializeError } from "~/observability/logger.server";
import { rateLimitRefusals } from "~/observability/metrics.server";

/**
 * Rate limits kept in PostgreSQL, so every server process behind a load
 * balancer counts against the same numbers (and a restart forgets nothing).
 *
 * Windows start at a subject's first hit: a rule allows `limit` hits per
 * subject in the `windowMs` after it, and the first hit after that window
 * starts a new one. One row per key, and one statement counts a hit:
 *
 *   insert ... values (key, now, now + windowMs, 1)
 *   on conflict (key) do update set
 *     (a new window when the row's has ended, else hits = hits + 1)
 *   where the row's window has ended or hits < limit
 *   returning hits
 *
 * PostgreSQL serializes the conflicting rows, so parallel requests on any
 * number of connections can never let more than `limit` through (no
 * read-then-write race), and a refused hit is not counted: the refusal lifts
 * when the window ends. Ended windows are pruned now and then.
 *
 * The store makes one limiter at start-up (app/runtime.server.ts) with its
 * RATE_LIMIT_SCALE, and every loader and action finds it as
 * `context.store.rateLimiter`; tests make theirs with a clock they drive.
 */

export interface RateLimitRule {
  /** Names the counter: `{name}:{subject}`. */
  name: string;
  limit: number;
  windowMs: number;
  /**
   * Per client address: the subject is the address, counted by addressKey (an IPv6 client by its /64,
   * so rotating through its addresses buys nothing), and the limit is multiplied by RATE_LIMIT_SCALE
   * (see effectiveLimit).
   */
  perAddress: boolean;
}

export type RateLimitDecision = { allowed: true; retryAfterMs: 0 } | { allowed: false; retryAfterMs: number };

/** Every rule of the store in one place, so the numbers can be read (and documented) together. */
export const RATE_LIMITS = {
  /** Chat messages (the page and POST /generate-text together), per conversation. */
  chat: { name: "chat", limit: 20, windowMs: 60_000, perAddress: false },
  /** Chat messages per client address, whatever conversation they claim (a fresh cookie buys nothing). */
  chatAddress: { name: "chat-ip", limit: 60, windowMs: 60_000, perAddress: true },
  /** Contact messages per address: enough for a person, not for a script. */
  contact: { name: "contact", limit: 10, windowMs: 10 * 60_000, perAddress: true },
  /** Newsletter sign-ups per address. */
  newsletter: { name: "newsletter", limit: 10, windowMs: 10 * 60_000, perAddress: true },
  /** "Notify me when available" requests per client address (each may send a confirmation email). */
  stockAlert: { name: "stock-alert", limit: 10, windowMs: 10 * 60_000, perAddress: true },
  /** "Notify me" requests naming one email address, from any client: a mailbox is not flooded with confirmations for many products. */
  stockAlertEmail: { name: "stock-alert-email", limit: 5, windowMs: 60 * 60_000, perAddress: false },
  /** Order lookups per address: a shopper checks a few orders, a script guessing ids is stopped. */
  orderLookup: { name: "order-lookup", limit: 30, windowMs: 10 * 60_000, perAddress: true },
  /** Payments started per address (every route that asks a provider to create a payment). */
  paymentStart: { name: "payment-start", limit: 20, windowMs: 10 * 60_000, perAddress: true },
  /** Order confirmation emails resent through POST /newPurchase, per address. */
  confirmationEmail: { name: "confirmation-email", limit: 10, windowMs: 60_000, perAddress: true },
  /** Carrier shipping quotes per address. */
  shippingQuote: { name: "shipping-quote", limit: 30, windowMs: 60_000, perAddress: true },
  /** Sales-tax calculations of the single-product checkouts' Apply per address (each may cost a Stripe Tax call; Proceed to Payment counts as a checkout). */
  taxQuote: { name: "tax-quote", limit: 30, windowMs: 60_000, perAddress: true },
  /** Sign-in form posts per address, right or wrong (failures have their own, stricter count in the lockout). */
  staffSignIn: { name: "staff-sign-in", limit: 20, windowMs: 5 * 60_000, perAddress: true },
  /** Checkouts recorded per address (Proceed to Payment on the cart, BUY NOW and seasoning checkouts): a shopper makes a few. */
  checkoutCreate: { name: "checkout-create", limit: 30, windowMs: 10 * 60_000, perAddress: true },
  /**
   * PayPal webhook deliveries the store asks PayPal to verify, for the whole store: forged posts come from
   * anywhere, and each costs an outbound call. Far above a real store's events; PayPal redelivers the rest.
   */
  paypalWebhookVerification: { name: "paypal-webhook-verify", limit: 30, windowMs: 60_000, perAddress: false },
  /** Wrong email addresses given to open a return or defect claim, per client address (app/returns/access.server.ts). */
  returnProofAddress: { name: "return-proof-ip", limit: 10, windowMs: 15 * 60_000, perAddress: true },
  /** Wrong email addresses given for one order, from any address: guessing one customer's email from many connections is stopped too. */
  returnProofOrder: { name: "return-proof-order", limit: 5, windowMs: 15 * 60_000, perAddress: false },
  /** Signed return links emailed to an order's customer on request: a few an hour, whoever asks (they reach only the customer). */
  returnLinkOrder: { name: "return-link-order", limit: 3, windowMs: 60 * 60_000, perAddress: false },
  /** Return and defect claim forms (with photos, up to 16 MB each) sent per address by a browser that proved its order. */
  returnSubmit: { name: "return-submit", limit: 20, windowMs: 10 * 60_000, perAddress: true },
} as const satisfies Record<string, RateLimitRule>;

/** Counts hits of subjects against rules; made once per store (see createRateLimiter). */
export interface RateLimiter {
  /** Counts one hit of `subject` against `rule`, or refuses it (and says for how long); a refused hit is not counted. */
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitDecision>;
  /** How many hits `subject` has in its current window (0 when it has none, or it has ended). */
  hits(rule: RateLimitRule, subject: string): Promise<number>;
  /** What a hit now would be answered, without counting one. */
  check(rule: RateLimitRule, subject: string): Promise<RateLimitDecision>;
  /** Deletes every counter whose window has ended; returns how many. */
  prune(): Promise<number>;
}

export interface RateLimiterOptions {
  db: Database;
  /** RATE_LIMIT_SCALE: multiplies the per-address limits (see effectiveLimit). */
  scale: number;
  /** The clock in milliseconds since the epoch; tests drive their own. */
  now?: () => number;
}

/** Keys stay short whatever a subject holds. */
const MAX_SUBJECT_LENGTH = 200;
/** Ended windows are deleted at most this often per limiter. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The rule's limit under RATE_LIMIT_SCALE. End-to-end and load tests send
 * everything from one address, so per-address limits are scaled up there;
 * per-conversation limits are not.
 */
export function effectiveLimit(rule: RateLimitRule, scale: number): number {
  return rule.perAddress ? Math.max(1, Math.round(rule.limit * scale)) : rule.limit;
}

export function createRateLimiter({ db, scale, now = Date.now }: RateLimiterOptions): RateLimiter {
  let lastPrunedAt = -Infinity;

  /** Deletes the counters whose window ended before `at`. */
  async function prune(at = now()): Promise<number> {
    const deleted = await db
      .delete(rateLimitCounters)
      .where(lt(rateLimitCounters.windowEnd, new Date(at)))
      .returning({ key: rateLimitCounters.key });
    return deleted.length;
  }

  async function pruneNowAndThen(at: number): Promise<void> {
    if (Math.abs(at - lastPrunedAt) < PRUNE_EVERY_MS) return;
    lastPrunedAt = at;
    try {
      await prune(at);
    } catch (error) {
      // Pruning is housekeeping: a failure must not refuse the request.
      log("warn", "Rate limits: pruning failed", { error: serializeError(error) });
    }
  }

  /** The subject's current window, if it has one that has not ended at `at`. */
  async function currentWindow(key: string, at: number): Promise<{ hits: number; windowEnd: Date } | undefined> {
    const [row] = await db
      .select({ hits: rateLimitCounters.hits, windowEnd: rateLimitCounters.windowEnd })
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.key, key), gt(rateLimitCounters.windowEnd, new Date(at))));
    return row;
  }

  function refusal(rule: RateLimitRule, windowEnd: Date | undefined, at: number): RateLimitDecision {
    return { allowed: false, retryAfterMs: Math.max(1000, (windowEnd?.getTime() ?? at + rule.windowMs) - at) };
  }

  return {
    async hit(rule, subject) {
      const limit = effectiveLimit(rule, scale);
      const at = now();
      const key = counterKey(rule, subject);
      await pruneNowAndThen(at);
      // `excluded` is the row this hit would insert: a window starting now. The row's own window has
      // ended when its end is at or before that start; then the hit starts a new window.
      const ended = lte(rateLimitCounters.windowEnd, sql`excluded.window_start`);
      const rows = await db
        .insert(rateLimitCounters)
        .values({ key, windowStart: new Date(at), windowEnd: new Date(at + rule.windowMs), hits: 1 })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            windowStart: sql`case when ${ended} then excluded.window_start else ${rateLimitCounters.windowStart} end`,
            windowEnd: sql`case when ${ended} then excluded.window_end else ${rateLimitCounters.windowEnd} end`,
            hits: sql`case when ${ended} then 1 else ${rateLimitCounters.hits} + 1 end`,
          },
          where: or(ended, lt(rateLimitCounters.hits, limit)),
        })
        .returning({ hits: rateLimitCounters.hits });
      if (rows.length > 0) return { allowed: true, retryAfterMs: 0 };
      rateLimitRefusals.inc({ rule: rule.name });
      // Refused: the window is the one that refused (read after the statement, only for Retry-After).
      return refusal(rule, (await currentWindow(key, at))?.windowEnd, at);
    },

    async hits(rule, subject) {
      return (await currentWindow(counterKey(rule, subject), now()))?.hits ?? 0;
    },

    async check(rule, subject) {
      const at = now();
      const window = await currentWindow(counterKey(rule, subject), at);
      if (!window || window.hits < effectiveLimit(rule, scale)) return { allowed: true, retryAfterMs: 0 };
      return refusal(rule, window.windowEnd, at);
    },

    prune: () => prune(),
  };
}

/** The counter's key: `{name}:{subject}`, a per-address rule's subject counted by addressKey. */
function counterKey(rule: RateLimitRule, subject: string): string {
  const counted = rule.perAddress ? addressKey(subject) : subject;
  return `${rule.name}:${counted.slice(0, MAX_SUBJECT_LENGTH)}`;
}

/** Seconds for a Retry-After header: at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** "a minute" or "N minutes", for messages that say how long to wait. */
export function waitText(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}
