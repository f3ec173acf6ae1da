/** A quiet log while something is refused again and again: one line per kind at most this often. */
export const QUIET_INTERVAL_MS = 10_000;

export type Warn = (msg: string, fields: Record<string, unknown>) => void;

/**
 * Logs the first event of each kind (its message) at once, then, once the interval has passed, how many
 * followed: a burst of forged or refused requests makes two lines, not one per request.
 */
export function quietCounter(warn: Warn) {
  const followers = new Map<string, number>();
  return {
    count(msg: string, fields: Record<string, unknown> = {}) {
      const seen = followers.get(msg);
      if (seen !== undefined) {
        followers.set(msg, seen + 1);
        return;
      }
      warn(msg, fields);
      followers.set(msg, 0);
      setTimeout(() => {
        const more = followers.get(msg) ?? 0;
        followers.delete(msg);
        if (more > 0) warn(msg, { ...fields, moreInLast10s: more });
      }, QUIET_INTERVAL_MS).unref();
    },
  };
}
