import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The id of the request the running code works for, without passing it down:
 * the HTTP server runs Remix's handler inside `withRequestId` (server/app.ts),
 * and the job queue runs each job's handler inside the id its data carries
 * (app/jobs/queue.server.ts). What reads it: the job queue, which puts it in
 * the data of the jobs a request queues; the email queue, which records it on
 * the delivery and hands it to the provider; and `log`, which adds it to
 * every line (app/observability/logger.server.ts). Work started outside a request
 * (start-up, the queue's own timers) has none.
 */
const current = new AsyncLocalStorage<string | undefined>();

/** Runs `work`, and everything it starts, as done for `requestId` (for none, when undefined). */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return current.run(requestId, work);
}

/** The id of the request this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}
