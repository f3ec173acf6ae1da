/**
 * An in-memory sliding-window rate limit for the chat, per visitor: at most
 * `limit` messages in any `windowMs`. One process only, which is how the store
 * runs; a restart forgets the counts, which errs on the shopper's side.
 */

export const CHAT_RATE_LIMIT = 20;
export const CHAT_RATE_WINDOW_MS = 60_000;
export const RATE_LIMIT_MESSAGE =
  "You're sending messages faster than I can answer. Please wait a minute and try again, or call or email us.";

export interface RateLimitDecision {
  allowed: boolean;
  /** When the next message will be allowed, if it is not now. */
  retryAfterMs: number;
}

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  now?: () => number;
  /** Visitors remembered at once; the longest idle are forgotten first. */
  maxVisitors?: number;
}

export interface RateLimiter {
  /** Counts a message for the visitor when it is allowed. */
  hit(key: string): RateLimitDecision;
  reset(): void;
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const limit = options.limit ?? CHAT_RATE_LIMIT;
  const windowMs = options.windowMs ?? CHAT_RATE_WINDOW_MS;
  const now = options.now ?? Date.now;
  const maxVisitors = options.maxVisitors ?? 10_000;
  // Insertion order is last-activity order: a visitor is re-inserted on every hit.
  const visitors = new Map<string, number[]>();

  function forgetIdle(at: number) {
    for (const [key, times] of visitors) {
      if (visitors.size <= maxVisitors && times[times.length - 1] > at - windowMs) break;
      visitors.delete(key);
    }
  }

  return {
    hit(key) {
      const at = now();
      const recent = (visitors.get(key) ?? []).filter((time) => time > at - windowMs);
      visitors.delete(key);
      if (recent.length >= limit) {
        visitors.set(key, recent);
        return { allowed: false, retryAfterMs: Math.max(0, recent[0] + windowMs - at) };
      }
      recent.push(at);
      visitors.set(key, recent);
      forgetIdle(at);
      return { allowed: true, retryAfterMs: 0 };
    },
    reset() {
      visitors.clear();
    },
  };
}

/** The process's chat limiter. */
export const chatRateLimiter = createRateLimiter();

/**
 * Who is sending: the conversation's id from its signed cookie, or, for a
 * browser without the cookie, the client address a proxy reports.
 */
export function visitorKey(request: Request, conversationId: string | null): string {
  if (conversationId) return `conversation:${conversationId}`;
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const address = forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
  return `address:${address}`;
}
