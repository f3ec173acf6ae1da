import { loadCatalogIfChanged } from "./catalog/load.server";
import { publicBaseUrl, type Config } from "./config.server";
import type { Database } from "./db/database.server";
import { startRetryLoop, type RetryLoop } from "./services/email/deliveries.server";
import { retryQueuedEmails } from "./services/email/index.server";
import { configuredRealMethods, testPaymentsEnabled } from "./services/payments/index.server";
import { ensureDemoStaffAccount } from "./staff/demo-account.server";

/** What a start-up step gets: the configuration and the migrated database, nothing more. */
export interface StartupContext {
  config: Config;
  db: Database;
}

type StartupStep = (context: StartupContext) => Promise<void>;

declare global {
  var __emailRetryLoop: RetryLoop | undefined;
}

/** How often each server process looks for queued emails whose next attempt is due. */
const EMAIL_RETRY_INTERVAL_MS = 30_000;

/** What each feature needs done once at start-up, in the order it runs. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  async ({ db }) => {
    const result = await loadCatalogIfChanged(db);
    if (result.loaded) console.log(`Catalog loaded: ${result.count} products.`);
  },
  async ({ db, config }) => {
    await ensureDemoStaffAccount(db, config);
  },
  async ({ config }) => {
    if (!config.PUBLIC_BASE_URL) {
      console.log(`PUBLIC_BASE_URL is not set: links in pages and emails use ${publicBaseUrl(config)}.`);
    }
  },
  async ({ config }) => {
    const real = configuredRealMethods(config);
    if (testPaymentsEnabled(config)) console.warn("TEST PAYMENTS: orders are approved without charging anyone");
    console.log(real.length > 0 ? `Payments: ${real.join(", ")}.` : "Payments: no real provider is configured.");
  },
  async ({ db }) => {
    // Emails that failed are sent again from the delivery queue; every process runs the loop, claims keep them apart.
    globalThis.__emailRetryLoop?.stop();
    globalThis.__emailRetryLoop = startRetryLoop(() => retryQueuedEmails(db), { intervalMs: EMAIL_RETRY_INTERVAL_MS });
    void globalThis.__emailRetryLoop.runOnce();
  },
];
