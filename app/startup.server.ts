import { loadCatalogueIfChanged } from "./catalogue/load.server";
import { onStartup } from "./runtime.server";

/**
 * Start-up steps of each feature, registered in the order they run.
 * Imported once by entry.server.tsx.
 */
onStartup(async ({ database }) => {
  const result = await loadCatalogueIfChanged(database.db);
  if (result.loaded) console.log(`Catalogue loaded: ${result.count} products.`);
});
