import { ConfigError, getConfig } from "../../app/config.server";
import { DatabaseInUseError, databaseTargetFor, openDatabase, type DatabaseHandle } from "../../app/db/database.server";

/**
 * Runs a staff script's task on the configured, migrated database and gives
 * the process's exit code: 0, or 1 after one readable line on stderr (a
 * configuration error, a database that cannot be opened or that the store
 * has open, or the task's own failure as `explainFailure` words it). The
 * database is always closed.
 */
export async function runOnStoreDatabase(
  task: (database: DatabaseHandle) => Promise<void>,
  explainFailure: (error: unknown) => string,
): Promise<number> {
  let database: DatabaseHandle;
  try {
    database = await openDatabase(databaseTargetFor(getConfig()));
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof DatabaseInUseError;
    console.error(known ? error.message : `Could not open the database: ${firstLine(error)}`);
    return 1;
  }
  try {
    await database.exclusively(() => database.migrate());
    await task(database);
    return 0;
  } catch (error) {
    console.error(explainFailure(error));
    return 1;
  } finally {
    await database.close();
  }
}

/** A failed query's message lists its parameters (a password hash) on later lines: keep the first. */
export function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
