import { loadCatalogIfChanged } from "./catalog/load.server";
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
];
