import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseInUseError, openDatabase } from "~/db/database.server";
import { contactMessages, emailOutbox, mailingList, orders, staffUsers } from "~/db/schema";
import { testOrder } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";

describe.each(testDatabaseKinds())("database constraints on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("creates every table of the schema", async () => {
    const result = await database.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = (result as unknown as { rows?: { table_name: string }[] }).rows ?? (result as unknown as { table_name: string }[]);
    expect(names.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        "contact_messages",
        "email_deliveries",
        "email_outbox",
        "mailing_list",
        "orders",
        "product_descriptions",
        "products",
        "staff_users",
        "store_settings",
      ]),
    );
  });

  it("keeps order display ids and payment references unique", async () => {
    await database.db.insert(orders).values(testOrder({ orderId: "K7Q2M9XW4P", paymentReference: "pay_1" }));
    await expect(database.db.insert(orders).values(testOrder({ orderId: "K7Q2M9XW4P" }))).rejects.toThrow();
    await expect(database.db.insert(orders).values(testOrder({ paymentReference: "pay_1" }))).rejects.toThrow();
  });

  it("rejects negative money and unknown statuses", async () => {
    await expect(database.db.insert(orders).values(testOrder({ totalCents: -1 }))).rejects.toThrow();
    await expect(database.db.insert(orders).values(testOrder({ status: "Lost" as never }))).rejects.toThrow();
    await expect(database.db.insert(orders).values(testOrder({ status: "Shipped" }))).resolves.toBeDefined();
  });

  it("keeps mailing-list emails unique regardless of case", async () => {
    await database.db.insert(mailingList).values({ email: "fan@example.com" });
    await expect(database.db.insert(mailingList).values({ email: "FAN@example.com" })).rejects.toThrow();
  });

  it("keeps staff emails unique and lower-case", async () => {
    await database.db.insert(staffUsers).values({ email: "staff@example.com", passwordHash: "hash" });
    await expect(database.db.insert(staffUsers).values({ email: "staff@example.com", passwordHash: "h" })).rejects.toThrow();
    await expect(database.db.insert(staffUsers).values({ email: "Staff2@example.com", passwordHash: "h" })).rejects.toThrow();
  });

  it("stores contact messages and outbox emails", async () => {
    await database.db.insert(contactMessages).values({ name: "A", email: "a@example.com", phone: "5555550100", message: "Hi" });
    const [email] = await database.db
      .insert(emailOutbox)
      .values({ toAddress: "a@example.com", fromAddress: "sales@example.com", subject: "S", textBody: "T" })
      .returning();
    expect(email.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("applies migrations idempotently", async () => {
    await expect(database.migrate()).resolves.toBeUndefined();
  });
});

describe("PGlite directory", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "store-pglite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps what was stored after the database is closed and opened again", async () => {
    const first = await openDatabase({ pgliteDir: dir });
    await first.migrate();
    await first.db.insert(mailingList).values({ email: "kept@example.com" });
    await first.close();

    const second = await openDatabase({ pgliteDir: dir });
    await second.migrate();
    const rows = await second.db.select().from(mailingList);
    await second.close();
    expect(rows.map((row) => row.email)).toEqual(["kept@example.com"]);
  });

  it("is opened by one opener at a time: a second open is refused until the first is closed", async () => {
    const first = await openDatabase({ pgliteDir: dir });
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseInUseError);
    await first.close();
    const second = await openDatabase({ pgliteDir: dir });
    expect(await second.ping()).toBe(true);
    await second.close();
  });

  it("takes over the lock of a process that stopped without closing it", async () => {
    const stoppedPid = spawnSync(process.execPath, ["-e", ""]).pid!;
    writeFileSync(path.join(dir, "store.lock"), `${stoppedPid}\n`);
    const database = await openDatabase({ pgliteDir: dir });
    expect(await database.ping()).toBe(true);
    await database.close();
  });
});
