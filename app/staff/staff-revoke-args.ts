import { parseArgs } from "node:util";
import { staffEmailSchema } from "./accounts.server";

export type StaffRevokeArgs = { ok: true; email: string } | { ok: false; error: string };

const USAGE = "Usage: npm run staff:revoke -- staff@example.com";

/** One email, as the only argument (or `--email X`). Errors are one line. */
export function parseStaffRevokeArgs(argv: string[]): StaffRevokeArgs {
  let parsed: { values: { email?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: { email: { type: "string" } }, strict: true, allowPositionals: true });
  } catch {
    return { ok: false, error: `Unexpected arguments. ${USAGE}` };
  }
  const candidates = [...parsed.positionals, ...(parsed.values.email !== undefined ? [parsed.values.email] : [])];
  if (candidates.length !== 1) return { ok: false, error: `Name exactly one staff email. ${USAGE}` };
  const email = staffEmailSchema.safeParse(candidates[0]);
  if (!email.success) return { ok: false, error: `The email must be a valid email address. ${USAGE}` };
  return { ok: true, email: email.data };
}
