import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { changeStaffPassword, createStaffAccount, DuplicateStaffEmailError, UnknownStaffEmailError } from "../app/staff/accounts.server";
import { parseStaffCreateArgs, readStaffPassword } from "../app/staff/staff-create-args";
import { firstLine, runOnStoreDatabase } from "./lib/store-database-task";

/**
 * npm run staff:create -- --email X --role owner|staff [--reset]
 * Creates a staff account (argon2id hash) with its role in the configured
 * database (an owner also changes prices, imports the catalogue and refunds:
 * app/staff/roles.ts); with --reset, replaces an existing account's password,
 * and its role when --role is given (without it the role stays), and ends
 * every one of its sessions. The password is asked for twice at a terminal (STAFF_PASSWORD is
 * not used there), otherwise read from STAFF_PASSWORD or standard input:
 *   printf '%s\n' "$PASSWORD" | npm run staff:create -- --email X
 * It is never taken as an argument (npm prints the command line) and never
 * printed. With the embedded database, stop the store first: PGlite allows
 * one process per data directory.
 */
const args = parseStaffCreateArgs(process.argv.slice(2));
if (!args.ok) {
  console.error(args.error);
  process.exit(1);
}

class PromptCancelled extends Error {}

/** Asks on stderr and reads the answer with the terminal's echo off; Ctrl-C or Ctrl-D cancels. */
async function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stderr.write(chunk, encoding);
      done();
    },
  });
  const terminal = createInterface({ input: process.stdin, output, terminal: true, historySize: 0 });
  const cancelled = new Promise<never>((_, reject) => {
    terminal.once("SIGINT", () => reject(new PromptCancelled()));
    terminal.once("close", () => reject(new PromptCancelled()));
  });
  cancelled.catch(() => {}); // closing after the answer rejects it too, unobserved
  try {
    const answer = terminal.question(question);
    muted = true;
    return await Promise.race([answer, cancelled]);
  } finally {
    muted = false;
    process.stderr.write("\n");
    terminal.close();
  }
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin.setEncoding("utf8")) text += chunk;
  return text;
}

let password;
try {
  password = await readStaffPassword({ stdinIsTTY: process.stdin.isTTY === true, env: process.env, promptHidden, readStdin }, args.email);
} catch (error) {
  if (!(error instanceof PromptCancelled)) throw error;
  console.error("Cancelled; nothing was changed.");
  process.exit(130);
}
if (!password.ok) {
  console.error(password.error);
  process.exit(1);
}
const { email, reset } = args;
const newPassword = password.password;

process.exit(
  await runOnStoreDatabase(
    async (database) => {
      if (args.reset) {
        const role = args.role ?? undefined;
        const { staff, endedSessions } = await changeStaffPassword(database.db, { email, password: newPassword, role });
        const what = role ? `Password replaced and role set to ${staff.role}` : `Password replaced (role kept: ${staff.role})`;
        console.log(`${what} for ${staff.email}; ${endedSessions} session(s) ended (${database.description}).`);
      } else {
        const staff = await createStaffAccount(database.db, { email, password: newPassword, role: args.role });
        console.log(`Staff account created: ${staff.email}, ${staff.role} (${database.description}).`);
      }
    },
    (error) => {
      const known = error instanceof DuplicateStaffEmailError || error instanceof UnknownStaffEmailError;
      const hint = error instanceof DuplicateStaffEmailError ? " Add --reset to replace its password (and --role to change its role)." : "";
      return known
        ? `${error.message}${hint}`
        : `Could not ${reset ? "replace the password" : "create the staff account"}: ${firstLine(error)}`;
    },
  ),
);
