import { addressKey } from "~/http/client-address";
import { RATE_LIMITS, type RateLimitDecision, type RateLimiter } from "~/security/rate-limit.server";

/**
 * The chat's rate limit, kept in PostgreSQL (app/security/rate-limit.server.ts)
 * so every server process counts together: at most CHAT_RATE_LIMIT messages a
 * minute per conversation (the page and POST /generate-text count together),
 * and a larger number per client address, so a script that drops its
 * conversation cookie gains nothing.
 */

export const CHAT_RATE_LIMIT = RATE_LIMITS.chat.limit;
export const RATE_LIMIT_MESSAGE =
  "You're sending messages faster than I can answer. Please wait a minute and try again, or call or email us.";

export interface ChatVisitor {
  /** The conversation's id from its signed cookie, if the browser has one. */
  conversationId: string | null;
  /** The client address the server resolved (context.clientAddress). */
  address: string;
}

/** Counts one chat message for the visitor, or refuses it. The address is counted first, so it holds whatever the cookie says. */
export async function hitChatRateLimit(rateLimiter: RateLimiter, visitor: ChatVisitor): Promise<RateLimitDecision> {
  const byAddress = await rateLimiter.hit(RATE_LIMITS.chatAddress, visitor.address);
  if (!byAddress.allowed) return byAddress;
  const subject = visitor.conversationId ? `conversation:${visitor.conversationId}` : `address:${addressKey(visitor.address)}`;
  return rateLimiter.hit(RATE_LIMITS.chat, subject);
}
