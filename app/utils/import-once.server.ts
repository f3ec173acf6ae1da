/**
 * A module imported on first use, and only once. The real drivers' SDKs (Stripe, OpenAI, Postmark) and
 * sharp load this way (PGlite too, by the same two lines in app/db, which imports no utils), so a
 * process that never uses one does not carry it: together about 33 MB of resident memory
 * (docs/performance.md), and the stand-ins are the default.
 */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
