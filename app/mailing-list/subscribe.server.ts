import type { Database } from "~/db/database.server";
import { mailingList } from "~/db/schema";

export type SubscribeOutcome = "subscribed" | "duplicate" | "failed";

type Logger = Pick<Console, "error">;

/**
 * Adds an address to the mailing list. The unique index on lower(email) is
 * the duplicate rule (no read-then-insert race): its violation means the
 * address is already registered; any other error is a failure, logged.
 */
export async function subscribe(db: Database, email: string, logger: Logger = console): Promise<SubscribeOutcome> {
  try {
    await db.insert(mailingList).values({ email: email.trim() });
    return "subscribed";
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    logger.error("Mailing list insert failed", error);
    return "failed";
  }
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
