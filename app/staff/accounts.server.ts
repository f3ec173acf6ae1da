import { hash, verify } from "@node-rs/argon2";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import { emailAddressSchema } from "~/utils/email-address.server";
import { staffUsers } from "~/db/schema";
import { revokeAllStaffSessions } from "./session-store.server";
import { isStaffRole, STAFF_ROLES, type StaffRole } from "./roles";
import type { StaffUser } from "./staff-user";

export const PASSWORD_MIN_LENGTH = 12;
/** Longer inputs are refused before hashing, so nobody can make the server hash megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

export const staffEmailSchema = emailAddressSchema("must be a valid email address").transform((email) => email.toLowerCase());

export const staffPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `must be at least ${PASSWORD_MIN_LENGTH} characters long` })
  .max(PASSWORD_MAX_LENGTH, { message: `must be at most ${PASSWORD_MAX_LENGTH} characters long` });

export class DuplicateStaffEmailError extends Error {
  constructor(email: string) {
    super(`A staff account for ${email} already exists.`);
    this.name = "DuplicateStaffEmailError";
  }
}

/** Emails are stored and compared lower-cased (the table checks it). */
export function normalizeStaffEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * argon2id with @node-rs/argon2's defaults (m=19456 KiB, t=2, p=1: the
 * OWASP recommendation). Only the PHC string `$argon2id$…` is stored.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** What every query that builds a StaffUser selects. */
const staffUserColumns = { id: staffUsers.id, email: staffUsers.email, role: staffUsers.role };

/** A role the table accepts (app/staff/roles.ts); anything else is refused before the database sees it. */
function checkedRole(role: StaffRole): StaffRole {
  if (!isStaffRole(role)) throw new Error(`A staff role is one of ${STAFF_ROLES.join(", ")}.`);
  return role;
}

/**
 * Creates an account with its role (owner or staff, app/staff/roles.ts); the email is lower-cased.
 * Throws DuplicateStaffEmailError when it exists.
 */
export async function createStaffAccount(db: Database, input: { email: string; password: string; role: StaffRole }): Promise<StaffUser> {
  const email = staffEmailSchema.parse(input.email);
  const password = staffPasswordSchema.parse(input.password);
  const role = checkedRole(input.role);
  const passwordHash = await hashPassword(password);
  const [row] = await db.insert(staffUsers).values({ email, passwordHash, role }).onConflictDoNothing().returning(staffUserColumns);
  if (!row) throw new DuplicateStaffEmailError(email);
  return row;
}

export class UnknownStaffEmailError extends Error {
  constructor(email: string) {
    super(`No staff account for ${email}.`);
    this.name = "UnknownStaffEmailError";
  }
}

/**
 * Replaces an account's password, and its role when `role` is given (without it the role stays), and
 * ends every one of its sessions in the same transaction: whoever held a session (or a copied cookie)
 * must sign in again with the new password. Throws UnknownStaffEmailError.
 */
export async function changeStaffPassword(
  db: Database,
  input: { email: string; password: string; role?: StaffRole },
): Promise<{ staff: StaffUser; endedSessions: number }> {
  const email = staffEmailSchema.parse(input.email);
  const role = input.role === undefined ? undefined : checkedRole(input.role);
  const passwordHash = await hashPassword(staffPasswordSchema.parse(input.password));
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffUsers)
      .set(role ? { passwordHash, role } : { passwordHash })
      .where(eq(staffUsers.email, email))
      .returning(staffUserColumns);
    if (!row) throw new UnknownStaffEmailError(email);
    return { staff: row, endedSessions: await revokeAllStaffSessions(tx, row.id) };
  });
}

/** Ends every session of the account with this email at once (`npm run staff:revoke`). Throws UnknownStaffEmailError. */
export async function revokeStaffSessionsByEmail(db: Database, email: string): Promise<{ staff: StaffUser; endedSessions: number }> {
  const normalized = normalizeStaffEmail(email);
  const [row] = await db.select(staffUserColumns).from(staffUsers).where(eq(staffUsers.email, normalized));
  if (!row) throw new UnknownStaffEmailError(normalized);
  return { staff: row, endedSessions: await revokeAllStaffSessions(db, row.id) };
}

let timingHash: Promise<string> | undefined;

/**
 * The staff member with this email and password, or null. An unknown email
 * still costs one argon2 verification, so the answer time does not tell
 * whether the email exists.
 */
export async function verifyStaffCredentials(db: Database, email: string, password: string): Promise<StaffUser | null> {
  if (password.length === 0 || password.length > PASSWORD_MAX_LENGTH) return null;
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.email, normalizeStaffEmail(email)));
  if (!row) {
    timingHash ??= hashPassword("timing-equaliser-for-unknown-emails");
    await verify(await timingHash, password).catch(() => false);
    return null;
  }
  const ok = await verify(row.passwordHash, password).catch(() => false);
  return ok ? { id: row.id, email: row.email, role: row.role } : null;
}

export async function countStaffAccounts(db: Database): Promise<number> {
  const [{ value }] = await db.select({ value: count() }).from(staffUsers);
  return value;
}
