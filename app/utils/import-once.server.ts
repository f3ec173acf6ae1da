/**
 * Something made on first use, and only once: the real drivers' SDKs (Stripe, OpenAI, Postmark) and
 * their clients, and sharp with its settings. A process that never uses one does not carry it: with
 * PGlite (imported where it opens, app/db) about 33 MB of resident memory (docs/performance.md), and
 * the stand-ins are the default.
 */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
