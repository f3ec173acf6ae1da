import type { JobSender } from "~/jobs/queue.server";
import { logError } from "~/observability/logger.server";

/**
 * Queues the "Notify me" emails of products that were out of stock and are available again, after the
 * transaction that put them back committed. Each product's job emails its confirmed subscribers once.
 */
export async function queueBackInStock(jobs: JobSender, productKeys: readonly string[]): Promise<void> {
  for (const id of new Set(productKeys)) {
    await jobs.send("stock.notify", { id }).catch((error: unknown) => {
      logError(`Product ${id}: the back-in-stock emails could not be queued (the next start queues them)`, error);
    });
  }
}
