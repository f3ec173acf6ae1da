import { parseArgs } from "node:util";
import { z } from "zod";
import { staffEmailSchema, staffPasswordSchema } from "./accounts.server";

export type StaffCreateArgs = { ok: true; email: string; password: string; reset: boolean } | { ok: false; error: string };

const USAGE = "Usage: npm run staff:create -- --email X --password Y [--reset]";

const ARGUMENT_ERRORS: Record<string, string> = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: "Unknown option",
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: "Unexpected extra argument (quote a password that contains spaces)",
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: "--email and --password each need a value",
};

const schema = z.object({ email: staffEmailSchema, password: staffPasswordSchema });

/**
 * `--email X --password Y` (or `--email=X`), and `--reset` to replace the
 * password of an existing account (which ends its sessions). Errors are one
 * line each and never repeat the password.
 */
export function parseStaffCreateArgs(argv: string[]): StaffCreateArgs {
  let values: { email?: string; password?: string; reset?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { email: { type: "string" }, password: { type: "string" }, reset: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // Node's own messages quote the offending argument, which may be part of a password: never echo them.
    return { ok: false, error: `${ARGUMENT_ERRORS[(error as { code?: string }).code ?? ""] ?? "Unexpected arguments"}. ${USAGE}` };
  }
  if (values.email === undefined || values.password === undefined) {
    return { ok: false, error: `Both --email and --password are required. ${USAGE}` };
  }
  const parsed = schema.safeParse({ email: values.email, password: values.password });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `The ${String(issue.path[0])} ${issue.message}.` };
  }
  return { ok: true, ...parsed.data, reset: values.reset === true };
}
