import { ConfigError, getConfig } from "../app/config.server";
import { databaseTargetFor, openDatabase } from "../app/db/database.server";

try {
  const config = getConfig();
  const database = await openDatabase(databaseTargetFor(config));
  await database.exclusively(() => database.migrate());
  console.log(`Migrations applied to ${database.description}.`);
  await database.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exit(1);
}
