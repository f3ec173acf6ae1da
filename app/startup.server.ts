import { loadCatalogIfChanged } from "./catalog/load.server";
import { publicBaseUrl } from "./config.server";
import { configuredRealMethods, testPaymentsEnabled } from "./services/payments/index.server";
import type { Runtime } from "./runtime.server";
import { ensureDemoStaffAccount } from "./staff/demo-account.server";

type StartupStep = (runtime: Runtime) => Promise<void>;

/** What each feature needs done once at start-up, in the order it runs. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  async ({ database }) => {
    const result = await loadCatalogIfChanged(database.db);
    if (result.loaded) console.log(`Catalog loaded: ${result.count} products.`);
  },
  async (runtime) => {
    await ensureDemoStaffAccount(runtime);
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
];
