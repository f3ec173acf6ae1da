import { ConfigError, getConfig } from "../app/config.server";
import { databaseTargetFor, openDatabase } from "../app/db/database.server";
import { createStaffAccount, DuplicateStaffEmailError } from "../app/staff/accounts.server";
import { parseStaffCreateArgs } from "../app/staff/staff-create-args";

/**
 * npm run staff:create -- --email X --password Y
 * Creates a staff account (argon2id hash) in the configured database. The
 * password is never printed. With the embedded database, stop the store
 * first: PGlite allows one process per data directory.
 */
const args = parseStaffCreateArgs(process.argv.slice(2));
if (!args.ok) {
  console.error(args.error);
  process.exit(1);
}

let exitCode = 0;
try {
  const config = getConfig();
  const database = await openDatabase(databaseTargetFor(config));
  try {
    await database.migrate();
    const staff = await createStaffAccount(database.db, { email: args.email, password: args.password });
    console.log(`Staff account created: ${staff.email} (${database.description}).`);
  } catch (error) {
    exitCode = 1;
    console.error(error instanceof DuplicateStaffEmailError ? error.message : `Could not create the staff account: ${firstLine(error)}`);
  } finally {
    await database.close();
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof ConfigError ? error.message : `Could not open the database: ${firstLine(error)}`);
}
process.exit(exitCode);

/** A failed query's message lists its parameters (the hash) on later lines: keep the first. */
function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
