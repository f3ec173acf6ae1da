import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase, type Database } from "~/db/database.server";
import { staffUsers } from "~/db/schema";
import { verifyStaffCredentials } from "~/staff/accounts.server";
import { createStaffSession, findActiveStaffSession } from "~/staff/session-store.server";
import { testDatabaseKinds } from "../support/test-database";

const PASSWORD = "Script-Created-Pass-99";
const TSX_CLI = path.resolve("node_modules/tsx/dist/cli.mjs");

/** `npm run staff:create -- …` against a throwaway embedded directory or PostgreSQL database. */
describe.each(testDatabaseKinds())("npm run staff:create on %s", (kind) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (kind === "pglite") {
      const dir = mkdtempSync(path.join(tmpdir(), "staff-create-"));
      env = { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      const name = `staff_create_${process.pid}_${randomBytes(4).toString("hex")}`;
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env = { DATABASE_URL: url.toString() };
      cleanup = async () => {
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end({ timeout: 5 });
      };
    }
  });

  afterAll(async () => {
    await cleanup?.();
  });

  /**
   * Runs a script as `npm run` does (the tsx command line, on this Node), the
   * password on standard input unless `extraEnv` gives STAFF_PASSWORD.
   */
  const runScript = (
    script: string,
    args: string[],
    { stdin = "", extraEnv = {} }: { stdin?: string; extraEnv?: Record<string, string> } = {},
  ) =>
    spawnSync(process.execPath, [TSX_CLI, script, ...args], {
      env: { ...process.env, ...env, SESSION_SECRET: "", STAFF_PASSWORD: "", ...extraEnv },
      input: stdin,
      encoding: "utf8",
      timeout: 180_000,
    });
  const run = (args: string[], password: string) => runScript("scripts/staff-create.ts", args, { stdin: `${password}\n` });

  it(
    "creates an account with a lower-cased email and its role, refuses a duplicate, never prints the password",
    { timeout: 300_000 },
    async () => {
      const created = run(["--email", "New.Staff@Example.com", "--role", "staff"], PASSWORD);
      expect(created.stderr).toBe("");
      expect(created.status).toBe(0);
      expect(created.stdout).toMatch(/^Staff account created: new\.staff@example\.com, staff \(/);

      const duplicate = runScript("scripts/staff-create.ts", ["--email", "new.staff@example.com", "--role", "owner"], {
        extraEnv: { STAFF_PASSWORD: PASSWORD },
      });
      expect(duplicate.status).toBe(1);
      expect(duplicate.stderr.trim()).toBe(
        "A staff account for new.staff@example.com already exists. Add --reset to replace its password (and --role to change its role).",
      );

      const noRole = run(["--email", "a@example.com"], PASSWORD);
      expect(noRole.status).toBe(1);
      expect(noRole.stderr.trim().split("\n")).toHaveLength(1);
      expect(noRole.stderr).toContain("--role is required to create an account: owner or staff");
      const badRole = run(["--email", "a@example.com", "--role", "admin"], PASSWORD);
      expect(badRole.status).toBe(1);
      expect(badRole.stderr.trim()).toBe("--role must be owner or staff.");

      const invalid = run(["--email", "nope", "--role", "staff"], PASSWORD);
      expect(invalid.status).toBe(1);
      expect(invalid.stderr.trim()).toBe("The email must be a valid email address.");
      const short = run(["--email", "a@example.com", "--role", "staff"], "too-short");
      expect(short.status).toBe(1);
      expect(short.stderr.trim()).toBe("The password must be at least 12 characters long.");
      const onCommandLine = runScript("scripts/staff-create.ts", ["--email", "a@example.com", "--password", PASSWORD]);
      expect(onCommandLine.status).toBe(1);
      expect(onCommandLine.stderr.trim().split("\n")).toHaveLength(1);
      expect(onCommandLine.stderr).toContain("STAFF_PASSWORD or on standard input");

      for (const result of [created, duplicate, noRole, badRole, invalid, short, onCommandLine]) {
        expect(result.stdout + result.stderr).not.toContain(PASSWORD);
        expect(result.stdout + result.stderr).not.toContain("too-short");
      }

      const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
      try {
        const rows = await database.db.select().from(staffUsers);
        expect(rows.map((row) => [row.email, row.role])).toEqual([["new.staff@example.com", "staff"]]);
        expect(rows[0].passwordHash).toMatch(/^\$argon2id\$/);
        expect(await verifyStaffCredentials(database.db, "new.staff@example.com", PASSWORD)).not.toBeNull();
      } finally {
        await database.close();
      }
    },
  );

  /** Opens the database (one process at a time for PGlite), runs `use`, closes it. */
  async function withDatabase<T>(use: (db: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
    try {
      return await use(database.db);
    } finally {
      await database.close();
    }
  }

  const liveSessions = (token: string) => withDatabase(async (db) => (await findActiveStaffSession(db, token, new Date())) !== null);

  it(
    "--reset replaces the password (and with --role the role) and ends every session of the account; staff:revoke ends them without a new password",
    { timeout: 300_000 },
    async () => {
      const NEW_PASSWORD = "Replaced-Pass-Phrase-77";
      const account = await withDatabase(async (db) => {
        const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, "new.staff@example.com"));
        return row;
      });
      const before = await withDatabase(async (db) => [
        await createStaffSession(db, account.id, new Date()),
        await createStaffSession(db, account.id, new Date()),
      ]);
      expect(await liveSessions(before[0].token)).toBe(true);

      const reset = run(["--email", "new.staff@example.com", "--reset"], NEW_PASSWORD);
      expect(reset.stderr).toBe("");
      expect(reset.status).toBe(0);
      expect(reset.stdout).toMatch(/^Password replaced \(role kept: staff\) for new\.staff@example\.com; 2 session\(s\) ended/);
      expect(reset.stdout + reset.stderr).not.toContain(NEW_PASSWORD);
      for (const session of before) expect(await liveSessions(session.token)).toBe(false);
      await withDatabase(async (db) => {
        expect(await verifyStaffCredentials(db, "new.staff@example.com", PASSWORD)).toBeNull();
        expect(await verifyStaffCredentials(db, "new.staff@example.com", NEW_PASSWORD)).not.toBeNull();
      });
      const roleOf = () =>
        withDatabase(async (db) => (await db.select().from(staffUsers).where(eq(staffUsers.email, "new.staff@example.com")))[0]!.role);
      expect(await roleOf()).toBe("staff");

      // With --role, the role changes too, and the sessions end as with any reset.
      const promotedFrom = await withDatabase((db) => createStaffSession(db, account.id, new Date()));
      const promoted = run(["--email", "new.staff@example.com", "--reset", "--role", "owner"], NEW_PASSWORD);
      expect(promoted.stderr).toBe("");
      expect(promoted.status).toBe(0);
      expect(promoted.stdout).toMatch(/^Password replaced and role set to owner for new\.staff@example\.com; 1 session\(s\) ended/);
      expect(await roleOf()).toBe("owner");
      expect(await liveSessions(promotedFrom.token)).toBe(false);

      const later = await withDatabase((db) => createStaffSession(db, account.id, new Date()));
      const revoked = runScript("scripts/staff-revoke.ts", ["New.Staff@example.com"]);
      expect(revoked.stderr).toBe("");
      expect(revoked.status).toBe(0);
      expect(revoked.stdout).toMatch(/^Ended 1 session\(s\) of new\.staff@example\.com/);
      expect(await liveSessions(later.token)).toBe(false);
    },
  );

  it.runIf(kind === "pglite")("refuses, in one line, a directory another process has open", { timeout: 300_000 }, async () => {
    const database = await openDatabase({ pgliteDir: env.PGLITE_DIR });
    try {
      const inUse = `The embedded database in ${env.PGLITE_DIR} is in use by another process (pid ${process.pid}). Stop the store first, or set DATABASE_URL to use a PostgreSQL server.`;
      for (const [script, args] of [
        ["scripts/staff-create.ts", ["--email", "second@example.com", "--role", "staff"]],
        ["scripts/staff-revoke.ts", ["new.staff@example.com"]],
        ["scripts/db-migrate.ts", []],
      ] as const) {
        const result = runScript(script, [...args], { stdin: `${PASSWORD}\n` });
        expect(result.stderr.trim()).toBe(inUse);
        expect(result.status).toBe(1);
      }
    } finally {
      await database.close();
    }
  });
});
