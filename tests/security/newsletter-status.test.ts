import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailingList } from "~/db/schema";
import { action as newsletterAction } from "~/routes/newsletter";
import { expectErrorLog } from "../support/error-log";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * `POST /newsletter` with `mode=fetch` (what the footer and
 * popup send once script runs) and a bad email answered 200. The status now
 * says what happened, with the message in the body.
 */

type Answer = { data: { status: string; message: string; email: string; source: string }; init: { status?: number } | null };

const post = (fields: Record<string, string>) =>
  newsletterAction({
    request: new Request(`${TEST_ORIGIN}/newsletter`, { method: "POST", body: new URLSearchParams(fields) }),
    params: {},
    context: testContext(runtime),
  }) as Promise<Answer | Response>;

describe.each(testDatabaseKinds())("newsletter answers with the status of what happened, on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it.each([
    ["footer", "not-an-email", "Please enter a valid email address"],
    ["footer", "", "Please enter a valid email address"],
    ["popup", "fan@example", "Please enter a valid email address."],
    ["popup", "fan@exa mple.com", "Please enter a valid email address."],
  ])("%s, %j: 400 with the spec's message, nothing stored", async (source, email, message) => {
    const answer = (await post({ email, source, mode: "fetch" })) as Answer;
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({ status: "invalid", message, source });
    const [{ value }] = await database.db.select({ value: sql<number>`count(*)::int` }).from(mailingList);
    expect(value).toBe(0);
  });

  it("200 for a sign-up, 409 for a confirmed address", async () => {
    const ok = (await post({ email: "fan@example.com", source: "footer", mode: "fetch" })) as Answer;
    expect(ok.init?.status ?? 200).toBe(200);
    expect(ok.data.status).toBe("subscribed");
    await database.db.update(mailingList).set({ status: "confirmed" });
    const duplicate = (await post({ email: "fan@example.com", source: "footer", mode: "fetch" })) as Answer;
    expect(duplicate.init?.status).toBe(409);
    expect(duplicate.data.message).toBe("This email is already registered.");
  });

  it("503 with the spec's failure message when the list cannot be written", async () => {
    await database.db.execute(
      sql.raw(
        `create or replace function refuse_signup() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`,
      ),
    );
    await database.db.execute(
      sql.raw(`create trigger refuse_signup before insert on mailing_list for each row execute function refuse_signup()`),
    );
    expectErrorLog();
    try {
      const failed = (await post({ email: "later@example.com", source: "popup", mode: "fetch" })) as Answer;
      expect(failed.init?.status).toBe(503);
      expect(failed.data.message).toBe("Failed to subscribe. Please try again.");
    } finally {
      await database.db.execute(sql.raw(`drop trigger refuse_signup on mailing_list`));
    }
  });

  it("without script (no mode) a bad email is still a 303 back to the page, with the result in the query", async () => {
    const response = (await post({ email: "nope", source: "footer", redirectTo: "/contact" })) as Response;
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/contact?newsletter=invalid&newsletter_source=footer&newsletter_email=nope#newsletter");
  });
});
