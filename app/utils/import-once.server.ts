/**
 * A module imported on first use, and only once. The real drivers' SDKs (Stripe, OpenAI, Postmark),
 * sharp and PGlite load this way, so a process that never uses one does not carry it: together they
 * are about 33 MB of resident memory (docs/performance.md), and the stand-ins are the default.
 */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
