import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from "~/db/database.server";
import { orders, paymentAttempts, staffUsers } from "~/db/schema";
import { createJobs } from "~/jobs/queue.server";
import { findOrderByDisplayId } from "~/orders/orders.server";
import { createAttempt, markAttemptApproved } from "~/payments/attempts.server";
import { startStoreRuntime } from "~/runtime.server";
import { STARTUP_STEPS } from "~/startup.server";
import { createStaffAccount, verifyStaffCredentials } from "~/staff/accounts.server";
import { startupReport } from "~/startup-report.server";
import { createScratchDatabase, missingPostgres, type ScratchDatabase } from "../resilience/support/databases";
import { testOrder } from "../support/shopping-fixtures";
import { withJobs } from "../support/test-runtime";

/**
 * The restore drill (docs/operations.md): a store with an order, its payment,
 * a staff account and a waiting job is backed up with `npm run db:backup`,
 * restored with `npm run db:restore` into a fresh database, and the store's
 * own database module finds the same order, payment and account there (and
 * the staff password still signs in); then the store starts on it, every
 * start-up step of its own (in this process: the built server is not needed). On PGlite always; on PostgreSQL when a
 * server answers (TEST_DATABASE_URL, or 127.0.0.1:5432) and pg_dump is installed.
 */

const TSX_CLI = path.resolve("node_modules/tsx/dist/cli.mjs");
const STAFF_EMAIL = "drill@example.com";
const STAFF_PASSWORD = "Restore-Drill-Pass-42";

function installed(program: string): boolean {
  return spawnSync(program, ["--version"]).status === 0;
}

const postgresUnavailable =
  (await missingPostgres()) ??
  (installed("pg_dump") && installed("pg_restore")
    ? null
    : "pg_dump or pg_restore is not installed (Debian: apt-get install postgresql-client)");
if (postgresUnavailable) console.warn(`Restore drill on PostgreSQL skipped: ${postgresUnavailable}`);

/** A database the drill can make, point the scripts at and throw away. */
interface DrillDatabase {
  target: DatabaseTarget;
  /** What the scripts' environment says to reach it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

const scratchDirs: string[] = [];
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "store-backup-"));
  scratchDirs.push(dir);
  return dir;
}

async function pgliteDatabase(): Promise<DrillDatabase> {
  const dir = path.join(scratchDir(), "pglite");
  return { target: { pgliteDir: dir }, env: { DATABASE_URL: "", PGLITE_DIR: dir }, drop: async () => {} };
}

async function postgresDatabase(): Promise<DrillDatabase> {
  const scratch: ScratchDatabase = await createScratchDatabase(undefined, "backup");
  return { target: { url: scratch.url }, env: { DATABASE_URL: scratch.url }, drop: () => scratch.drop() };
}

const kinds = [
  { kind: "PGlite", make: pgliteDatabase, skip: null },
  { kind: "PostgreSQL", make: postgresDatabase, skip: postgresUnavailable },
] as const;

describe.each(kinds)("the restore drill on $kind", ({ kind, make, skip }) => {
  let source: DrillDatabase;
  let restored: DrillDatabase;
  let backupDir: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (skip) return;
    source = await make();
    restored = await make();
    cleanups.push(source.drop, restored.drop);
    backupDir = path.join(scratchDir(), "backups");
  });

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run db:<script> -- args` as a child process (the tsx command line npm runs, on this Node). */
  const run = (script: "backup" | "restore", database: DrillDatabase, args: string[] = []) =>
    spawnSync(process.execPath, [TSX_CLI, `scripts/db-${script}.ts`, ...args], {
      env: { ...process.env, BACKUP_DIR: backupDir, ...database.env },
      encoding: "utf8",
      timeout: 180_000,
    });

  /** An expected refusal: exit 1, one line on stderr, no stack. */
  const expectRefusal = (result: ReturnType<typeof run>, message: RegExp) => {
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
  };

  let orderId: string;
  let attemptId: string;

  it.skipIf(skip)("backs up a store with an order, its payment, a staff account and a waiting job", { timeout: 300_000 }, async () => {
    const database = await openDatabase(source.target);
    try {
      await database.migrate();
      const jobs = createJobs();
      await jobs.start(database, { logger: { error: () => {}, warn: () => {} } });
      try {
        const attempt = await createAttempt(withJobs(database.db, jobs), {
          checkoutToken: "ck_drill",
          method: "stripe",
          provider: "test",
          amountCents: 9800,
        });
        await markAttemptApproved(database.db, attempt.id, { paymentId: "pay_drill_1", authorizationExpiresAt: null });
        attemptId = attempt.id;
      } finally {
        await jobs.stop();
      }
      const [order] = await database.db
        .insert(orders)
        .values(testOrder({ paymentReference: "pay_drill_1", checkoutToken: "ck_drill", email: "shopper@example.com" }))
        .returning();
      orderId = order.orderId;
      await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, role: "staff" });

      if (kind === "PGlite") {
        // The store holds its directory while it runs: the backup refuses, saying to stop it.
        expectRefusal(run("backup", source), /in use by another process \(pid \d+\)\. Stop the store first/);
      }
    } finally {
      await database.close();
    }

    const backup = run("backup", source);
    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    const lines = backup.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^Backing up /);
    expect(lines.at(-1)).toMatch(/^Wrote .*store-\d{8}-\d{6}\.(dump|pglite\.tar\.gz) \(\d+(\.\d)? [KM]B\)\.$/);
    expect(readdirSync(backupDir)).toHaveLength(1);
  });

  it.skipIf(skip)("restores it into a fresh database, where the store finds the same order, payment and staff account", async () => {
    const [file] = readdirSync(backupDir).map((name) => path.join(backupDir, name));
    const restore = run("restore", restored, [file]);
    expect(restore.stderr).toBe("");
    expect(restore.status).toBe(0);
    expect(restore.stdout).toMatch(/^Restored: \d+ tables, 1 orders, 1 payment attempts, 1 staff accounts\.$/m);

    const database: DatabaseHandle = await openDatabase(restored.target);
    try {
      // Start-up migrates: a restored store is already up to date.
      await database.migrate();
      const order = await findOrderByDisplayId(database.db, orderId);
      expect(order).toMatchObject({ orderId, paymentReference: "pay_drill_1", totalCents: 9800, status: "Approved" });
      expect(order?.customer.email).toBe("shopper@example.com");
      const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
      expect(attempt).toMatchObject({ status: "approved", paymentId: "pay_drill_1", amountCents: 9800 });
      expect(await database.db.select({ email: staffUsers.email }).from(staffUsers)).toEqual([{ email: STAFF_EMAIL }]);
      expect(await verifyStaffCredentials(database.db, STAFF_EMAIL, STAFF_PASSWORD)).toMatchObject({ email: STAFF_EMAIL });
      // The job queue's own schema came along: the payment's scheduled check is still waiting.
      const { rows } = await database.executeSql(`select count(*)::int as n from pgboss.job where name = 'payment.reconcile'`, []);
      expect(Number(rows[0].n)).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it.skipIf(skip)("starts the store on the restored database: every start-up step, then the same order and staff account", async () => {
    const lines: string[] = [];
    const report = startupReport({ write: (text: string) => lines.push(...text.split("\n").filter(Boolean)) });
    const store = await startStoreRuntime(parseConfig(restored.env), report, { privatePaths: [] });
    try {
      // Each step's line, as the store prints it at start-up: the catalogue loaded, the job queue started, and so on.
      const printed = lines.join("\n");
      expect(printed).toMatch(/migrations\s+up to date/);
      expect(printed).toMatch(/staff\s+accounts in place/);
      for (const step of STARTUP_STEPS) expect(printed).toMatch(new RegExp(`^  ${step.name} `, "m"));
      expect(printed).toMatch(/catalogue\s+[\d,]+ products loaded/);
      expect(await findOrderByDisplayId(store.db, orderId)).toMatchObject({ orderId, paymentReference: "pay_drill_1" });
      expect(await verifyStaffCredentials(store.db, STAFF_EMAIL, STAFF_PASSWORD)).toMatchObject({ email: STAFF_EMAIL });
    } finally {
      await store.database.close();
    }
  });

  it.skipIf(skip)("refuses a database that is not empty unless --force, and a file that is not its kind of backup", async () => {
    const [file] = readdirSync(backupDir).map((name) => path.join(backupDir, name));
    expectRefusal(run("restore", restored, [file]), /is not empty \(\d+ tables\)\. .*add --force to DELETE/);
    expectRefusal(run("restore", restored, [path.join(backupDir, "missing.dump")]), /^No backup file at .*missing\.dump\.$/);
    expectRefusal(run("restore", restored, ["package.json"]), /package\.json is not a backup made by npm run db:backup/);
    const noFile = run("restore", restored, []);
    expect(noFile.status).toBe(1);
    expect(noFile.stderr).toMatch(/^Name the backup file to restore\.\nUsage: npm run db:restore -- \[--force\] FILE/);

    // --force replaces what is there with the backup: an order added since is gone. Not while the store has it open.
    const database = await openDatabase(restored.target);
    try {
      await database.db.insert(orders).values(testOrder({ paymentReference: "pay_after_backup" }));
      expectRefusal(
        run("restore", restored, ["--force", file]),
        kind === "PGlite"
          ? /in use by another process \(pid \d+\)\. Stop the store first/
          : /^The store is connected to .*: stop every store process first\.$/,
      );
    } finally {
      await database.close();
    }
    const forced = run("restore", restored, ["--force", file]);
    expect(forced.stderr).toBe("");
    expect(forced.status).toBe(0);
    expect(forced.stdout).toMatch(/^--force: deleting /);
    expect(forced.stdout).toMatch(/^Restored: \d+ tables, 1 orders, 1 payment attempts, 1 staff accounts\.$/m);
  });
});
