import { randomBytes } from "node:crypto";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { countStaffAccounts, createStaffAccount, DuplicateStaffEmailError } from "./accounts.server";

export const DEMO_STAFF_EMAIL = "staff@example.com";

/** 18 random bytes: 24 characters of base64url. */
export function randomDemoPassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * On the embedded start only (no DATABASE_URL), and only while no staff
 * account exists: creates staff@example.com, an owner (the only account, so it
 * must be able to refund and change prices), with a random password, for the
 * start-up log to print once. The password is never stored in clear, so it is
 * shown only at creation, once per data directory. STAFF_DEMO_PASSWORD (tests)
 * replaces the random password and is then not handed back.
 */
export async function ensureDemoStaffAccount(
  db: Database,
  config: Pick<Config, "DATABASE_URL" | "STAFF_DEMO_PASSWORD">,
): Promise<CreatedDemoAccount | null> {
  if (config.DATABASE_URL) return null;
  if ((await countStaffAccounts(db)) > 0) return null;
  const configured = config.STAFF_DEMO_PASSWORD;
  const password = configured ?? randomDemoPassword();
  try {
    await createStaffAccount(db, { email: DEMO_STAFF_EMAIL, password, role: "owner" });
  } catch (error) {
    if (error instanceof DuplicateStaffEmailError) return null;
    throw error;
  }
  return { email: DEMO_STAFF_EMAIL, password: configured ? null : password };
}

/** The demo account just made; `password` is null when it came from STAFF_DEMO_PASSWORD. */
export interface CreatedDemoAccount {
  email: string;
  password: string | null;
}
