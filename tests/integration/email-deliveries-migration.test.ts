import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "~/db/database.server";

/**
 * The email_deliveries migration (0005) turns the confirmation flags the store kept in store_settings
 * (`order_confirmation_sent:{orderId}`) into sent deliveries, so no order that
 * was confirmed before the delivery queue is emailed again.
 */
describe("the email_deliveries migration", () => {
  let client: PGlite;
  const files = readdirSync(MIGRATIONS_FOLDER)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  // Found by name: the hand-written data step at its end must survive a renumbering.
  const queueMigration = files.findIndex((name) => name.includes("email_deliveries"));

  async function apply(name: string) {
    const text = readFileSync(path.join(MIGRATIONS_FOLDER, name), "utf8");
    for (const statement of text.split("--> statement-breakpoint")) {
      if (statement.trim()) await client.exec(statement);
    }
  }

  beforeAll(async () => {
    client = new PGlite("memory://", { extensions: { pg_trgm } });
    await client.waitReady;
    for (const name of files.slice(0, queueMigration)) await apply(name);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("keeps earlier confirmations as sent, and removes the old flags", async () => {
    expect(queueMigration).toBeGreaterThan(0);
    await client.exec(`insert into store_settings (key, value, updated_at) values
      ('order_confirmation_sent:K7Q2M9XW4P', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00Z'),
      ('session_secret', 'kept', now())`);
    await apply(files[queueMigration]!);
    const deliveries = await client.query<{ reference: string; status: string; sent_at: Date }>(
      "select reference, status, sent_at from email_deliveries",
    );
    expect(deliveries.rows).toEqual([
      { reference: "order-confirmation:K7Q2M9XW4P", status: "sent", sent_at: new Date("2026-11-20T10:00:00Z") },
    ]);
    const settings = await client.query<{ key: string }>("select key from store_settings order by key");
    expect(settings.rows.map((row) => row.key)).toEqual(["session_secret"]);
  });
});
