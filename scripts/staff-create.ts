import { changeStaffPassword, createStaffAccount, DuplicateStaffEmailError, UnknownStaffEmailError } from "../app/staff/accounts.server";
import { parseStaffCreateArgs } from "../app/staff/staff-create-args";
import { firstLine, runOnStoreDatabase } from "./lib/store-database-task";

/**
 * npm run staff:create -- --email X --password Y [--reset]
 * Creates a staff account (argon2id hash) in the configured database; with
 * --reset, replaces an existing account's password and ends every one of its
 * sessions. The password is never printed. With the embedded database, stop the store
 * first: PGlite allows one process per data directory.
 */
const args = parseStaffCreateArgs(process.argv.slice(2));
if (!args.ok) {
  console.error(args.error);
  process.exit(1);
}

process.exit(
  await runOnStoreDatabase(
    async (database) => {
      if (args.reset) {
        const { staff, endedSessions } = await changeStaffPassword(database.db, { email: args.email, password: args.password });
        console.log(`Password replaced for ${staff.email}; ${endedSessions} session(s) ended (${database.description}).`);
      } else {
        const staff = await createStaffAccount(database.db, { email: args.email, password: args.password });
        console.log(`Staff account created: ${staff.email} (${database.description}).`);
      }
    },
    (error) => {
      const known = error instanceof DuplicateStaffEmailError || error instanceof UnknownStaffEmailError;
      const hint = error instanceof DuplicateStaffEmailError ? " Add --reset to replace its password." : "";
      return known
        ? `${error.message}${hint}`
        : `Could not ${args.reset ? "replace the password" : "create the staff account"}: ${firstLine(error)}`;
    },
  ),
);
