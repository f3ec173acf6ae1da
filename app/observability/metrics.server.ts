import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The store's Prometheus metrics (prom-client). Each process keeps its own
 * registry and serves it on the metrics port (server/metrics-server.ts), never
 * on the public one; Prometheus scrapes every process and adds them up.
 *
 * The domain code counts what happens where it happens (a payment approved,
 * an email given up, a rate limit refusing); the few figures only the
 * database knows (the oldest unfinished payment, the job queue) are read when
 * Prometheus asks, by the readers the composition root registers
 * (`readAtScrape`). The names follow Prometheus' conventions: a `store_`
 * prefix, base units (seconds, bytes), `_total` on counters, and labels of a
 * few known values only (a route's id, never a URL).
 *
 * Module-level, as prom-client's metrics are meant to be: counting must cost a
 * shopper's request nothing more than an increment, whatever function it
 * happens in.
 */
export const metricsRegistry = new Registry();

const registers = [metricsRegistry];

/** Seconds: from a shared-cache answer (a millisecond) to a page over a slow database. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type StatusClass = "1xx" | "2xx" | "3xx" | "4xx" | "5xx";

export const httpRequestDuration = new Histogram({
  name: "store_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by route (the Remix route id, or assets, public, health), method and status class.",
  labelNames: ["route", "method", "status_class"] as const,
  buckets: DURATION_BUCKETS,
  registers,
});

export const renderDuration = new Histogram({
  name: "store_render_duration_seconds",
  help: "Time Remix took to answer a request the shared cache did not (loaders, actions and the page's render), by route.",
  labelNames: ["route"] as const,
  buckets: DURATION_BUCKETS,
  registers,
});

export const sharedCacheLookups = new Counter({
  name: "store_shared_cache_lookups_total",
  help: "Requests the process's shared cache could have answered, by result (hit or miss).",
  labelNames: ["result"] as const,
  registers,
});

export const paymentAttempts = new Counter({
  name: "store_payment_attempts_total",
  help: "Payments started with a provider, and how they ended (approved, declined, abandoned), by provider.",
  labelNames: ["provider", "outcome"] as const,
  registers,
});

export const refunds = new Counter({
  name: "store_refunds_total",
  help: "Refunds asked of a provider (whole and partial), by provider and outcome (issued, or failed: refused, unreachable or not configured).",
  labelNames: ["provider", "outcome"] as const,
  registers,
});

export const orders = new Counter({
  name: "store_orders_total",
  help: "Orders recorded after a verified payment, by payment provider.",
  labelNames: ["provider"] as const,
  registers,
});

export const emails = new Counter({
  name: "store_emails_total",
  help: "Email send attempts by outcome: sent, failed (tried again later) or given_up (no more attempts).",
  labelNames: ["outcome"] as const,
  registers,
});

export const rateLimitRefusals = new Counter({
  name: "store_rate_limit_refusals_total",
  help: "Requests a rate limit refused, by rule.",
  labelNames: ["rule"] as const,
  registers,
});

export const webhookVerificationFailures = new Counter({
  name: "store_webhook_verification_failures_total",
  help: "Provider webhook deliveries refused because their signature did not verify, by provider.",
  labelNames: ["provider"] as const,
  registers,
});

export const stockOuts = new Counter({
  name: "store_stock_outs_total",
  help: "Lines refused for lack of stock: a payment not started (hold) or a paid order not recorded and refunded (sale).",
  labelNames: ["at"] as const,
  registers,
});

/** What only the database knows, read when Prometheus asks (see readAtScrape). */
export interface ScrapeReaders {
  /** Whether the process can serve (its database answers). */
  ready(): Promise<boolean>;
  /** When the oldest payment still `started` began, or null. */
  oldestUnfinishedPaymentStartedAt(): Promise<Date | null>;
  /** Jobs due and not yet done, per queue. */
  jobQueueDepths(): Promise<Partial<Record<string, number>>>;
  /** Stock held by checkouts paying now: live holds and the units they hold. */
  stockHolds(): Promise<{ holds: number; units: number }>;
}

let readers: ScrapeReaders | null = null;

/** Registers the readers of the database-held figures; until then those gauges are left out. */
export function readAtScrape(next: ScrapeReaders | null): void {
  readers = next;
}

/**
 * A figure from the database, or undefined when there are no readers or the database did not answer:
 * the gauge then keeps its last value, and the scrape still succeeds (store_ready says what is wrong).
 */
async function readSafely<T>(read: (current: ScrapeReaders) => Promise<T>): Promise<T | undefined> {
  if (!readers) return undefined;
  try {
    return await read(readers);
  } catch {
    return undefined;
  }
}

new Gauge({
  name: "store_ready",
  help: "1 while the process can serve (its database answers), 0 otherwise.",
  registers,
  async collect() {
    if (readers) this.set((await readers.ready().catch(() => false)) ? 1 : 0);
  },
});

new Gauge({
  name: "store_payment_oldest_unfinished_attempt_age_seconds",
  help: "Age of the oldest payment attempt still waiting for its provider's answer; 0 when none waits.",
  registers,
  async collect() {
    const startedAt = await readSafely((current) => current.oldestUnfinishedPaymentStartedAt());
    if (startedAt !== undefined) this.set(startedAt ? Math.max(0, (Date.now() - startedAt.getTime()) / 1000) : 0);
  },
});

new Gauge({
  name: "store_job_queue_depth",
  help: "Background jobs due and not yet done, per queue.",
  labelNames: ["queue"] as const,
  registers,
  async collect() {
    const depths = await readSafely((current) => current.jobQueueDepths());
    for (const [queue, depth] of Object.entries(depths ?? {})) if (depth !== undefined) this.set({ queue }, depth);
  },
});

new Gauge({
  name: "store_stock_holds",
  help: "Live stock holds of checkouts whose payment is under way (released when paid, declined, abandoned or expired).",
  registers,
  async collect() {
    const held = await readSafely((current) => current.stockHolds());
    if (held) this.set(held.holds);
  },
});

new Gauge({
  name: "store_stock_held_units",
  help: "Units of stock those holds keep from other shoppers.",
  registers,
  async collect() {
    const held = await readSafely((current) => current.stockHolds());
    if (held) this.set(held.units);
  },
});

let defaultMetricsCollected = false;

/** The process's own figures (event-loop lag, GC, heap, RSS, CPU), once per process: started with the metrics port. */
export function collectProcessMetrics(): void {
  if (defaultMetricsCollected) return;
  defaultMetricsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** The status class a status is counted under: "2xx" for 204. */
export function statusClassOf(status: number): StatusClass {
  return `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` as StatusClass;
}
