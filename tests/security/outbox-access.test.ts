import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "~/db/schema";
import { loader as outboxEmailLoader } from "~/routes/dev.outbox.$id";
import { loader as outboxLoader } from "~/routes/dev.outbox";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const result = await run();
    return result instanceof Response ? result.status : 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe("the offline outbox is not for strangers", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    runtime = testRuntime(database);
    await database.db.insert(emailOutbox).values({
      id: "11111111-1111-4111-8111-111111111111",
      toAddress: "grace@example.com",
      fromAddress: "sales@example.com",
      subject: "Your order",
      textBody: "Grace Hopper, 200 Congress Ave",
      htmlBody: "<p>Grace Hopper</p>",
    });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("answers 404 to a visitor without a staff session, list and single email alike", async () => {
    const request = new Request(`${TEST_ORIGIN}/dev/outbox`);
    expect(await statusOf(() => outboxLoader({ request, params: {}, context: testContext(runtime) }))).toBe(404);
    const single = new Request(`${TEST_ORIGIN}/dev/outbox/11111111-1111-4111-8111-111111111111`);
    expect(
      await statusOf(() =>
        outboxEmailLoader({ request: single, params: { id: "11111111-1111-4111-8111-111111111111" }, context: testContext(runtime) }),
      ),
    ).toBe(404);
  });

  it("ignores a forged staff cookie", async () => {
    const request = new Request(`${TEST_ORIGIN}/dev/outbox`, { headers: { Cookie: "__staff=eyJzdGFmZklkIjoiMSJ9.forged" } });
    expect(await statusOf(() => outboxLoader({ request, params: {}, context: testContext(runtime) }))).toBe(404);
  });
});
