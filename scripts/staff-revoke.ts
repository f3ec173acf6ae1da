import { ConfigError, getConfig } from "../app/config.server";
import { databaseTargetFor, openDatabase } from "../app/db/database.server";
import { revokeStaffSessionsByEmail, UnknownStaffEmailError } from "../app/staff/accounts.server";
import { parseStaffRevokeArgs } from "../app/staff/staff-revoke-args";

/**
 * npm run staff:revoke -- staff@example.com
 * Ends every session of that staff account at once, on every server process
 * (sessions live in the database): a lost laptop or a copied cookie is
 * signed out at its next request. The account and its password stay.
 */
const args = parseStaffRevokeArgs(process.argv.slice(2));
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
    const { staff, endedSessions } = await revokeStaffSessionsByEmail(database.db, args.email);
    console.log(`Ended ${endedSessions} session(s) of ${staff.email} (${database.description}).`);
  } catch (error) {
    exitCode = 1;
    console.error(error instanceof UnknownStaffEmailError ? error.message : `Could not end the sessions: ${firstLine(error)}`);
  } finally {
    await database.close();
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof ConfigError ? error.message : `Could not open the database: ${firstLine(error)}`);
}
process.exit(exitCode);

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
