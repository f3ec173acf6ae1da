import { parseArgs } from "node:util";
import { ConfigError, getConfig } from "../app/config.server";
import { DatabaseInUseError } from "../app/db/database.server";
import { BackupError, restorePglite, restorePostgres } from "./lib/backup";

/**
 * npm run db:restore -- [--force] FILE
 * Restores a backup made by `npm run db:backup` into the configured database
 * (DATABASE_URL, or PGLITE_DIR without it), which must be empty: no tables.
 * --force first DELETES everything in a database that is not. Run it with the
 * store stopped; docs/operations.md has the whole procedure.
 */
const USAGE = "Usage: npm run db:restore -- [--force] FILE  (--force deletes what the target database holds first)";

let file: string;
let force: boolean;
try {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error(positionals.length === 0 ? "Name the backup file to restore." : "Name one backup file.");
  file = positionals[0];
  force = values.force === true;
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(1);
}

try {
  const config = getConfig();
  const log = (line: string) => console.log(line);
  if (config.DATABASE_URL) await restorePostgres(file, config.DATABASE_URL, { force }, log);
  else await restorePglite(file, config.PGLITE_DIR, { force }, log);
} catch (error) {
  const known = error instanceof BackupError || error instanceof ConfigError || error instanceof DatabaseInUseError;
  console.error(known ? (error as Error).message : `Restore failed: ${String((error as Error).message).split("\n")[0]}`);
  process.exit(1);
}
