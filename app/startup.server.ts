import { loadCatalogIfChanged } from "./catalog/load.server";
import { photoIndex } from "./catalog/photos.server";
import { publicBaseUrl, type Config } from "./config.server";
import { formatNumber } from "./utils/number-format";
import type { Database, DatabaseHandle } from "./db/database.server";
import type { Jobs } from "./jobs/queue.server";
import { deliverQueuedEmail, scheduleQueuedEmails } from "./services/email/deliveries.server";
import type { StoreServices } from "./services/store-services.server";
import { scheduleUnfinishedAttempts, sweepDueAttempts } from "./payments/reconciler.server";
import { cleanUpAbandonedCheckouts, scheduleCheckoutCleanup } from "./checkout/abandoned-checkouts.server";
import { configuredRealMethods, testPaymentsEnabled } from "./services/payments/index.server";
import { ensureDemoStaffAccount } from "./staff/demo-account.server";
import { scheduleUntrackedShipments, trackShipment } from "./orders/shipping-tracker.server";
import type { ProgressFn, StartupReport } from "./startup-report.server";
import { scheduleTaxRecording, sweepTaxTransactions } from "./tax/tax-transactions.server";
import { taxServiceSummary } from "./tax/tax-summary.server";
import { scheduleHoldRelease, sweepExpiredHolds } from "./stock/stock-holds.server";
import { seedStock } from "./stock/stock.server";
import { notifyBackInStock, scheduleBackInStock } from "./stock/stock-alerts.server";

/** What a start-up step gets: the configuration, the migrated database, the services and where to say what it found. */
export interface StartupContext {
  config: Config;
  db: Database;
  /** The same database, for what runs its own SQL on it (the job queue). */
  database: DatabaseHandle;
  /** The runtime's job queue, which the jobs step starts and works. */
  jobs: Jobs;
  /** The services the runtime built from the configuration, for the jobs that use them. */
  services: StoreServices;
  /** The session secret, for the jobs whose emails carry signed links ("Notify me"). */
  sessionSecret: string;
  report: StartupReport;
}

interface StartupStep {
  name: string;
  /** Does the step's work and says in a few words what it did. */
  run(context: StartupContext, progress: ProgressFn): Promise<string>;
}

/** What each feature needs done once at start-up, in the order it runs. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  {
    name: "catalogue",
    async run({ db, report, config }, progress) {
      // A catalogue that cannot be loaded is reported and the store keeps serving the products it has.
      try {
        // Products with a photo in PRODUCT_PHOTOS_DIR show it instead of their drawings (ADR 016).
        const photos = await photoIndex(config.PRODUCT_PHOTOS_DIR);
        if (config.PRODUCT_PHOTOS_DIR && !photos)
          report.note(`PRODUCT_PHOTOS_DIR ${config.PRODUCT_PHOTOS_DIR} is not a folder: drawings only`);
        const withPhotos = photos
          ? `; photos for ${formatNumber(photos.products.size)} product${photos.products.size === 1 ? "" : "s"}`
          : "";
        const result = await loadCatalogIfChanged(db, undefined, { onProgress: progress, photos });
        // Products new to the catalogue get their stock row; counts already there are kept.
        const stocked = await seedStock(db, config.STOCK_DEFAULT_ON_HAND);
        const withStock =
          stocked > 0
            ? `; stock for ${formatNumber(stocked)} new (${config.STOCK_DEFAULT_ON_HAND} units each, none counted if made to order)`
            : "";
        if (!result.loaded) return `unchanged since the last start${withPhotos}${withStock}`;
        for (const { brand, count } of result.kept) report.note(`kept the last good ${brand} products (${count})`);
        return `${formatNumber(result.count)} products loaded${withPhotos}${withStock}`;
      } catch (error) {
        return `not loaded, serving the products already in the database: ${(error as Error).message}`;
      }
    },
  },
  {
    name: "staff",
    async run({ db, config }) {
      const demo = await ensureDemoStaffAccount(db, config);
      if (!demo) return "accounts in place";
      const password = demo.password ?? "from STAFF_DEMO_PASSWORD";
      return `demo account ${demo.email}, password ${password} (shown only now: note it)`;
    },
  },
  {
    name: "links",
    async run({ config }) {
      const base = publicBaseUrl(config);
      return config.PUBLIC_BASE_URL ? base : `${base} (PUBLIC_BASE_URL is not set)`;
    },
  },
  {
    name: "payments",
    async run({ config }) {
      const real = configuredRealMethods(config);
      const providers = real.length > 0 ? real.join(", ") : "no real provider configured";
      return testPaymentsEnabled(config) ? `${providers}; TEST PAYMENTS: orders are approved without charging anyone` : providers;
    },
  },
  {
    name: "tax",
    async run({ services }) {
      return taxServiceSummary(services.taxService);
    },
  },
  {
    name: "jobs",
    async run({ config, db, database, jobs, services, sessionSecret }) {
      const deps = { db, config, jobs, ...services };
      // Every process works the queue (app/jobs/queue.server.ts); pg-boss gives each job to one of them.
      const queue = await jobs.start(database);
      // Work whose job was lost (a process died before it could queue one) is scheduled again, before the workers'
      // first fetch: a job per waiting email (one already waiting is not doubled) and one payment sweep now.
      const emails = await scheduleQueuedEmails(deps);
      const attempts = await scheduleUnfinishedAttempts(deps);
      await queue.work("email.deliver", ({ id }) => deliverQueuedEmail(deps, services.emailSender, id));
      await queue.work("payment.reconcile", () => sweepDueAttempts(deps));
      await scheduleCheckoutCleanup(jobs);
      await queue.work("checkout.cleanup", () => cleanUpAbandonedCheckouts(deps));
      const parcels = await scheduleUntrackedShipments(deps);
      await queue.work("shipment.track", ({ id }) => trackShipment(deps, id));
      const taxRecords = await scheduleTaxRecording(deps);
      await queue.work("tax.record", () => sweepTaxTransactions(deps, services.taxService));
      const holds = await scheduleHoldRelease(deps);
      await queue.work("stock.release", () => sweepExpiredHolds(deps));
      const backInStock = await scheduleBackInStock(deps);
      const alerts = { secret: sessionSecret, baseUrl: publicBaseUrl(config), storeName: config.STORE_NAME, sender: services.emailSender };
      await queue.work("stock.notify", ({ id }) => notifyBackInStock(deps, alerts, id));
      return `email deliveries, payment checks, parcel tracking, tax records, stock hold releases, back-in-stock emails and the hourly checkout clean-up on pg-boss (${emails} emails waiting, ${attempts} payments unfinished, ${parcels} parcels to track, ${taxRecords} tax records to send, ${holds} stock holds, ${backInStock} products back in stock to announce)`;
    },
  },
];
