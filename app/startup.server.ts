import { loadCatalogIfChanged } from "./catalog/load.server";
import { publicBaseUrl, type Config } from "./config.server";
import type { Database } from "./db/database.server";
import { startRetryLoop, type RetryLoop } from "./services/email/deliveries.server";
import { retryQueuedEmails } from "./services/email/index.server";
import { reconcileDueAttempts } from "./payments/reconciler.server";
import { configuredRealMethods, testPaymentsEnabled } from "./services/payments/index.server";
import { ensureDemoStaffAccount } from "./staff/demo-account.server";
import type { ProgressFn, StartupReport } from "./startup-report.server";

/** What a start-up step gets: the configuration, the migrated database and where to say what it found. */
export interface StartupContext {
  config: Config;
  db: Database;
  report: StartupReport;
}

interface StartupStep {
  name: string;
  /** Does the step's work and says in a few words what it did. */
  run(context: StartupContext, progress: ProgressFn): Promise<string>;
}

declare global {
  var __emailRetryLoop: RetryLoop | undefined;
  var __paymentReconcileLoop: RetryLoop | undefined;
}

/** How often each server process looks for unfinished payments whose next check is due. */
const RECONCILE_INTERVAL_MS = 60_000;

/** How often each server process looks for queued emails whose next attempt is due. */
const EMAIL_RETRY_INTERVAL_MS = 30_000;

/** What each feature needs done once at start-up, in the order it runs. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  {
    name: "catalogue",
    async run({ db, report }, progress) {
      // A catalogue that cannot be loaded is reported and the store keeps serving the products it has.
      try {
        const result = await loadCatalogIfChanged(db, undefined, { onProgress: progress });
        if (!result.loaded) return "unchanged since the last start";
        for (const { brand, count } of result.kept) report.note(`kept the last good ${brand} products (${count})`);
        return `${result.count.toLocaleString("en-US")} products loaded`;
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
    async run({ config, db }) {
      // Unfinished payments are asked about again (reconciler.server.ts); every process runs the loop, claims keep them apart.
      globalThis.__paymentReconcileLoop?.stop();
      globalThis.__paymentReconcileLoop = startRetryLoop(() => reconcileDueAttempts(db, config), { intervalMs: RECONCILE_INTERVAL_MS });
      void globalThis.__paymentReconcileLoop.runOnce();
      const real = configuredRealMethods(config);
      const providers = real.length > 0 ? real.join(", ") : "no real provider configured";
      return testPaymentsEnabled(config) ? `${providers}; TEST PAYMENTS: orders are approved without charging anyone` : providers;
    },
  },
  {
    name: "email",
    async run({ db }) {
      // Emails that failed are sent again from the delivery queue; every process runs the loop, claims keep them apart.
      globalThis.__emailRetryLoop?.stop();
      globalThis.__emailRetryLoop = startRetryLoop(() => retryQueuedEmails(db), { intervalMs: EMAIL_RETRY_INTERVAL_MS });
      void globalThis.__emailRetryLoop.runOnce();
      return `delivery queue checked every ${EMAIL_RETRY_INTERVAL_MS / 1000} s`;
    },
  },
];
