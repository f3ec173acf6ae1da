import { revokeStaffSessionsByEmail, UnknownStaffEmailError } from "../app/staff/accounts.server";
import { parseStaffRevokeArgs } from "../app/staff/staff-revoke-args";
import { firstLine, runOnStoreDatabase } from "./lib/store-database-task";

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

process.exit(
  await runOnStoreDatabase(
    async (database) => {
      const { staff, endedSessions } = await revokeStaffSessionsByEmail(database.db, args.email);
      console.log(`Ended ${endedSessions} session(s) of ${staff.email} (${database.description}).`);
    },
    (error) => (error instanceof UnknownStaffEmailError ? error.message : `Could not end the sessions: ${firstLine(error)}`),
  ),
);
