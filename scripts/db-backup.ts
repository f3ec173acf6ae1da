import { parseArgs } from "node:util";
import { ConfigError, getConfig } from "../app/config.server";
import { DatabaseInUseError } from "../app/db/database.server";
import { backupPglite, backupPostgres, BackupError, DEFAULT_BACKUP_DIR } from "./lib/backup";

/**
 * npm run db:backup
 * Writes a dated, compressed backup of the configured database to BACKUP_DIR
 * (default ./backups): `store-YYYYMMDD-HHMMSS.dump` (pg_dump's custom format)
 * with DATABASE_URL, `store-YYYYMMDD-HHMMSS.pglite.tar.gz` (PGlite's own dump)
 * without. The embedded database is backed up with the store stopped (PGlite
 * allows one process per directory). Restore with `npm run db:restore FILE`;
 * docs/operations.md has the schedule and the restore steps.
 */
const USAGE = "Usage: npm run db:backup  (writes to BACKUP_DIR, default ./backups; docs/operations.md)";

try {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { help: { type: "boolean", short: "h" } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(1);
}

try {
  const config = getConfig();
  const backupDir = process.env.BACKUP_DIR?.trim() || DEFAULT_BACKUP_DIR;
  const log = (line: string) => console.log(line);
  if (config.DATABASE_URL) await backupPostgres(config.DATABASE_URL, backupDir, new Date(), log);
  else await backupPglite(config.PGLITE_DIR, backupDir, new Date(), log);
} catch (error) {
  const known = error instanceof BackupError || error instanceof ConfigError || error instanceof DatabaseInUseError;
  console.error(known ? (error as Error).message : `Backup failed: ${String((error as Error).message).split("\n")[0]}`);
  process.exit(1);
}
