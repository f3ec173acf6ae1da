import type { CatalogWatch } from "./catalog/catalog-changes.server";
import type { Config } from "./config.server";
import type { Database, DatabaseHandle } from "./db/database.server";
import type { Jobs } from "./jobs/queue.server";
import type { RateLimiter } from "./security/rate-limit.server";
import type { EmailSender } from "./services/email/types";
import type { PaymentProviders } from "./services/payments/index.server";
import type { ShipmentTracker } from "./services/shipping/easypost-tracker.server";
import type { ShippingRates } from "./services/shipping/types";
import type { TaxService } from "./services/tax/types";
import type { TextGenerator } from "./services/text/types";
import type { Clock } from "./utils/clock";

/**
 * Everything a request needs besides itself: the validated configuration, the
 * migrated database, the session secret and the services the configuration
 * chooses (services/store-services.server.ts). The server's composition root
 * (server/main.ts) starts it once and hands it to every loader and action as
 * `context.store` (app/http/load-context.ts); tests build one on their own
 * database (tests/support/test-runtime.ts).
 */
export interface StoreRuntime {
  config: Config;
  /** The database's handle: ping, close, raw SQL (the job queue) and `db`. */
  database: DatabaseHandle;
  /** The same database as drizzle queries it: what most code takes. */
  db: Database;
  sessionSecret: string;
  /**
   * What robots.txt disallows: the URL prefixes of the pages whose route declares them not to be crawled
   * (`handle = { indexing: "private" }`), read from the build's routes at start (utils/private-paths.server.ts).
   */
  privatePaths: readonly string[];
  /** Catalogue changes of every process (the desk, its CSV import, a reload, a sale's start or end): the shared HTTP cache empties itself on each. */
  catalogWatch: Pick<CatalogWatch, "onChange">;
  /** The time as the store's code reads it (app/utils/clock.ts): the machine's, or a test's. */
  clock: Clock;
  /** The job queue (app/jobs/queue.server.ts), started by the start-up's jobs step: what domain code queues its work on. */
  jobs: Jobs;
  /** The rate limits, counted in `db` with RATE_LIMIT_SCALE (security/rate-limit.server.ts). */
  rateLimiter: RateLimiter;
  /** Postmark when POSTMARK_SERVER_TOKEN is set, else the offline outbox in this database. */
  emailSender: EmailSender;
  /** Each payment method's provider: its real driver when its keys are set, else the test page while test payments are on. */
  payments: PaymentProviders;
  /** EasyPost when EASYPOST_API_KEY is set, else the offline estimate. */
  shippingRates: ShippingRates;
  /** EasyPost's trackers when EASYPOST_API_KEY is set, else the stand-in (staff record delivery dates). */
  shipmentTracker: ShipmentTracker;
  /** OpenAI when OPENAI_API_KEY is set, else the local formatter. */
  textGenerator: TextGenerator;
  /** Stripe Tax when TAX_PROVIDER=stripe, else the offline table of state rates (charging in TAX_REGISTERED_STATES). */
  taxService: TaxService;
}

/**
 * What domain code takes of the runtime when it calls outside services: the database, the configuration
 * and the services built once with the runtime. A test builds one with `storeOf` (tests/support/test-runtime.ts).
 */
export type ServiceDeps = Pick<
  StoreRuntime,
  "db" | "config" | "jobs" | "emailSender" | "payments" | "shippingRates" | "shipmentTracker" | "textGenerator" | "taxService"
>;
