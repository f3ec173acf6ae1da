import { parseArgs } from "node:util";
import { staffEmailSchema, staffPasswordSchema } from "./accounts.server";
import { isStaffRole, STAFF_ROLES, type StaffRole } from "./roles";

/** Creating takes a role; a reset without one (`role: null`) keeps the account's role. */
export type StaffCreateArgs =
  | { ok: true; email: string; reset: false; role: StaffRole }
  | { ok: true; email: string; reset: true; role: StaffRole | null }
  | { ok: false; error: string };

export type StaffPassword = { ok: true; password: string } | { ok: false; error: string };

const USAGE =
  "Usage: npm run staff:create -- --email X --role owner|staff [--reset] (the password is asked for at a terminal, or read from STAFF_PASSWORD or standard input)";

const ROLES = STAFF_ROLES.join(" or ");
const ROLE_REQUIRED = `--role is required to create an account: ${ROLES} (an owner also changes prices, imports the catalogue and refunds).`;
const ROLE_INVALID = `--role must be ${ROLES}.`;

const PASSWORD_ON_COMMAND_LINE =
  "The password is not taken on the command line (npm prints the command and the shell keeps it in its history): " +
  "leave out --password and type it when asked, or pass it in STAFF_PASSWORD or on standard input.";

const NO_PASSWORD = "No password given: run it at a terminal to be asked, or pass it in STAFF_PASSWORD or on standard input.";

const ARGUMENT_ERRORS: Record<string, string> = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: "Unknown option",
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: "Unexpected extra argument",
};

/** Node's message for an option without its value names the option (never the value): `Option '--role <value>' argument missing`. */
function missingValue(error: unknown): string | null {
  if ((error as { code?: string }).code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return null;
  const option = /'--(email|role)\b/.exec(String((error as Error).message))?.[1];
  return option === "role" ? `--role needs a value: ${ROLES}.` : "--email needs a value.";
}

/**
 * `--email X` (or `--email=X`), `--role owner|staff` (required to create an
 * account), and `--reset` to replace the password of an existing account
 * (which ends its sessions); `--reset --role R` changes its role too, and
 * `--reset` alone keeps it. `--password` is refused: the password comes from
 * readStaffPassword. Errors are one line each and never repeat an argument,
 * which may be a password typed by habit.
 */
export function parseStaffCreateArgs(argv: string[]): StaffCreateArgs {
  if (argv.some((arg) => arg === "--password" || arg.startsWith("--password="))) {
    return { ok: false, error: PASSWORD_ON_COMMAND_LINE };
  }
  let values: { email?: string; role?: string; reset?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { email: { type: "string" }, role: { type: "string" }, reset: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // Node's own messages quote the offending argument: never echo it.
    const message = missingValue(error) ?? `${ARGUMENT_ERRORS[(error as { code?: string }).code ?? ""] ?? "Unexpected arguments"}.`;
    return { ok: false, error: `${message} ${USAGE}` };
  }
  if (values.email === undefined) return { ok: false, error: `--email is required. ${USAGE}` };
  const email = staffEmailSchema.safeParse(values.email);
  if (!email.success) return { ok: false, error: `The email ${email.error.issues[0].message}.` };
  if (values.role === undefined) {
    return values.reset ? { ok: true, email: email.data, reset: true, role: null } : { ok: false, error: `${ROLE_REQUIRED} ${USAGE}` };
  }
  const role = values.role.trim().toLowerCase();
  if (!isStaffRole(role)) return { ok: false, error: ROLE_INVALID };
  return values.reset ? { ok: true, email: email.data, reset: true, role } : { ok: true, email: email.data, reset: false, role };
}

/** Where the script reads the password from; the script supplies the terminal and stdin access. */
export interface PasswordInput {
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
  /** Asks at the terminal without echoing what is typed. */
  promptHidden(question: string): Promise<string>;
  /** All of standard input. */
  readStdin(): Promise<string>;
}

/**
 * At a terminal the password is asked for twice, unechoed; otherwise it is
 * STAFF_PASSWORD when set, or all of standard input without its one trailing
 * newline (`printf '%s' … |`, `echo … |` and a file all work). Then the usual
 * length rules apply. No error repeats the password.
 */
export async function readStaffPassword(input: PasswordInput, email: string): Promise<StaffPassword> {
  let password: string;
  if (input.stdinIsTTY) {
    password = await input.promptHidden(`Password for ${email}: `);
    const again = await input.promptHidden("Type it again: ");
    if (again !== password) return { ok: false, error: "The two passwords do not match; nothing was changed." };
  } else if (input.env.STAFF_PASSWORD) {
    password = input.env.STAFF_PASSWORD;
  } else {
    password = (await input.readStdin()).replace(/\r?\n$/, "");
    if (password === "") return { ok: false, error: NO_PASSWORD };
  }
  const parsed = staffPasswordSchema.safeParse(password);
  return parsed.success ? { ok: true, password: parsed.data } : { ok: false, error: `The password ${parsed.error.issues[0].message}.` };
}
