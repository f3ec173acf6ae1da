import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { emailDeliveries } from "~/db/schema";
import { DEFAULT_DELIVERY_POLICY, deliverEmail, retryDueEmails, type DeliveryPolicy } from "~/services/email/deliveries.server";
import { sendEmailSafely } from "~/services/email/index.server";
import { createPostmarkSender } from "~/services/email/postmark-sender.server";
import type { EmailMessage } from "~/services/email/types";
import { postmarkError, startFakePostmark, type FakeServer } from "../fakes/postmark";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { logger } from "~/observability/logger.server";
import { emails } from "~/observability/metrics.server";
import { withRequestId } from "~/observability/request-context.server";
import { withJobs } from "../support/test-runtime";

/**
 * A failed email is kept in the delivery
 * queue and retried with backoff until it goes out or is given up; the caller
 * never waits for more than one attempt and never sees an exception; several
 * processes retrying at once send each email once.
 */

const MINUTE = 60_000;
const policy: DeliveryPolicy = { maxAttempts: 3, leaseMs: MINUTE, backoffMs: (attempt) => attempt * MINUTE };

const message = (subject: string): EmailMessage => ({
  to: "ada@example.com",
  subject,
  text: "Your order",
  html: "<p>Your order</p>",
  tag: "order-confirmation",
  replyTo: "sales@example.com",
  headers: { "List-Unsubscribe": "<http://store.test/newsletter/unsubscribe?token=u.1.0.x>" },
});

describe.each(testDatabaseKinds())("email retry from the delivery queue on %s", (kind) => {
  let database: TestDatabase;
  let postmark: FakeServer;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    postmark = await startFakePostmark();
  });
  afterAll(async () => {
    await postmark?.close();
    await database?.dispose();
  });
  beforeEach(async () => {
    postmark.reset();
    await database.db.delete(emailDeliveries);
    vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    return () => vi.restoreAllMocks();
  });

  // No test here is about Postmark's time-out: a generous one, so a busy machine's slow answer is still an answer.
  const sender = () =>
    createPostmarkSender({ serverToken: "t", from: "store@example.com", requestHost: postmark.host, useHttps: false, timeoutSeconds: 60 });
  const rowOf = async (id: string) => (await database.db.select().from(emailDeliveries).where(eq(emailDeliveries.id, id)))[0];

  it("sends at once when Postmark answers, and keeps a slim record", async () => {
    // The caller waits for the first attempt however long it takes here (a page waits FIRST_ATTEMPT_WAIT_MS).
    const result = await deliverEmail(withJobs(database.db), sender(), message("Sent at once"), { policy, waitMs: 60_000 });
    expect(result.status).toBe("sent");
    expect(postmark.requests).toHaveLength(1);
    const row = await rowOf((result as { id: string }).id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, textBody: "", htmlBody: null });
    expect(row?.messageId).toBeTruthy();
  });

  it("queues a failed email, then sends it when Postmark is back, with the same headers", async () => {
    const start = new Date("2026-11-23T12:00:00Z");
    postmark.respondWith(() => postmarkError(0, "Internal server error.", 500));
    const result = await deliverEmail(withJobs(database.db), sender(), message("Retried"), { policy, now: start });
    expect(result.status).toBe("queued");
    const id = (result as { id: string }).id;
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "Internal server error." });
    expect((await rowOf(id))?.nextAttemptAt.getTime()).toBe(start.getTime() + MINUTE);

    // Not due yet: nothing is claimed.
    expect((await retryDueEmails(withJobs(database.db), sender(), { now: new Date(start.getTime() + 30_000), policy })).claimed).toBe(0);

    // Due, still failing: attempt 2, rescheduled after 2 minutes.
    const second = new Date(start.getTime() + MINUTE);
    expect(await retryDueEmails(withJobs(database.db), sender(), { now: second, policy })).toEqual({
      claimed: 1,
      sent: 0,
      rescheduled: 1,
      failed: 0,
    });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 2 });
    expect((await rowOf(id))?.nextAttemptAt.getTime()).toBe(second.getTime() + 2 * MINUTE);

    // Postmark is back: attempt 3 sends it.
    postmark.reset();
    const third = new Date(second.getTime() + 2 * MINUTE);
    expect(await retryDueEmails(withJobs(database.db), sender(), { now: third, policy })).toEqual({
      claimed: 1,
      sent: 1,
      rescheduled: 0,
      failed: 0,
    });
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null });
    expect(postmark.requests).toHaveLength(1);
    expect(postmark.requests[0]?.body).toMatchObject({
      To: "ada@example.com",
      Subject: "Retried",
      HtmlBody: "<p>Your order</p>",
      ReplyTo: "sales@example.com",
      Headers: [{ Name: "List-Unsubscribe", Value: "<http://store.test/newsletter/unsubscribe?token=u.1.0.x>" }],
    });
    expect((await retryDueEmails(withJobs(database.db), sender(), { now: new Date(third.getTime() + 60 * MINUTE), policy })).claimed).toBe(
      0,
    );
  });

  it("records the request an email was queued for, and names it to Postmark (Metadata) and in the log on every attempt", async () => {
    const requestId = "3be3c214-377d-4172-9139-e4819c5c39a0";
    const start = new Date("2026-11-23T12:00:00Z");
    const info = vi.spyOn(logger, "info").mockImplementation((() => {}) as never);
    postmark.respondWith(() => postmarkError(0, "Internal server error.", 500));
    const result = await withRequestId(requestId, () =>
      deliverEmail(withJobs(database.db), sender(), message("Traced"), { policy, now: start }),
    );
    expect(result.status).toBe("queued");
    const id = (result as { id: string }).id;
    expect(await rowOf(id)).toMatchObject({ requestId });
    expect(postmark.requests[0]?.body).toMatchObject({ Metadata: { requestId } });

    // Retried by a job outside any request (a later start's): the row still names it.
    postmark.reset();
    expect((await retryDueEmails(withJobs(database.db), sender(), { now: new Date(start.getTime() + MINUTE), policy })).sent).toBe(1);
    expect(postmark.requests[0]?.body).toMatchObject({ Subject: "Traced", Metadata: { requestId } });
    expect(info).toHaveBeenCalledWith(expect.objectContaining({ requestId, deliveryId: id, tag: "order-confirmation" }), "email sent");

    // An email no request queued carries none.
    postmark.reset();
    await deliverEmail(withJobs(database.db), sender(), message("Untraced"), { policy, waitMs: 60_000 });
    expect(postmark.requests[0]?.body).not.toHaveProperty("Metadata");
  });

  it("gives up after the last attempt, logs it, and counts each attempt for the metrics", async () => {
    const counted = { failed: await emailsCounted("failed"), givenUp: await emailsCounted("given_up") };
    const start = new Date("2026-11-23T12:00:00Z");
    postmark.respondWith(() => postmarkError(406, "You tried to send to a recipient that has been marked as inactive."));
    const result = await deliverEmail(withJobs(database.db), sender(), message("Given up"), { policy, now: start });
    const id = (result as { id: string }).id;
    let now = start;
    for (const expected of ["rescheduled", "failed"] as const) {
      now = (await rowOf(id))!.nextAttemptAt;
      const report = await retryDueEmails(withJobs(database.db), sender(), { now, policy });
      expect(report[expected]).toBe(1);
    }
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: 3 });
    expect(postmark.requests).toHaveLength(3);
    expect(vi.mocked(logger.error).mock.calls.some(([, msg]) => String(msg).includes("given up after 3 attempts"))).toBe(true);
    expect(await emailsCounted("failed")).toBe(counted.failed + 2);
    expect(await emailsCounted("given_up")).toBe(counted.givenUp + 1);
    expect(
      (await retryDueEmails(withJobs(database.db), sender(), { now: new Date(now.getTime() + 24 * 60 * MINUTE), policy })).claimed,
    ).toBe(0);
  });

  it("retries an email whose sender died mid-attempt once its lease has run out", async () => {
    const start = new Date("2026-11-23T12:00:00Z");
    const [row] = await database.db
      .insert(emailDeliveries)
      .values({
        toAddress: "ada@example.com",
        subject: "Orphan",
        textBody: "x",
        attempts: 1,
        nextAttemptAt: new Date(start.getTime() + MINUTE),
      })
      .returning();
    expect((await retryDueEmails(withJobs(database.db), sender(), { now: start, policy })).claimed).toBe(0);
    expect((await retryDueEmails(withJobs(database.db), sender(), { now: new Date(start.getTime() + MINUTE), policy })).sent).toBe(1);
    expect(await rowOf(row!.id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("sends each queued email once when several processes retry at the same time", async () => {
    const now = new Date("2026-11-23T12:00:00Z");
    await database.db.insert(emailDeliveries).values(
      Array.from({ length: 12 }, (_, index) => ({
        toAddress: `buyer${index}@example.com`,
        subject: `Queued ${index}`,
        textBody: "x",
        attempts: 1,
        nextAttemptAt: now,
      })),
    );
    // Slow answers keep each claim open while the other loops run.
    postmark.respondWith(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return {
        status: 200,
        body: { To: (request.body as { To: string }).To, MessageID: crypto.randomUUID(), ErrorCode: 0, Message: "OK" },
      };
    });
    const reports = await Promise.all(
      Array.from({ length: 4 }, () => retryDueEmails(withJobs(database.db), sender(), { now, policy, limit: 5 })),
    );
    expect(reports.every((report) => report.claimed <= 5)).toBe(true);
    const again = await retryDueEmails(withJobs(database.db), sender(), { now, policy, limit: 20 });
    const sent = reports.reduce((sum, report) => sum + report.sent, 0) + again.sent;
    expect(sent).toBe(12);
    const subjects = postmark.requests.map((request) => (request.body as { Subject: string }).Subject);
    expect(new Set(subjects).size).toBe(12);
    expect(subjects).toHaveLength(12);
  });

  it("never throws to the caller, even when the queue itself is out of reach", async () => {
    const broken = {
      insert: () => {
        throw new Error("connection lost");
      },
    } as unknown as typeof database.db;
    const result = await deliverEmail(withJobs(broken), sender(), message("No queue"), { policy });
    // Postmark still got it: a reachable provider is tried even without the queue.
    expect(result.status).toBe("sent");
    postmark.respondWith(500, "down");
    await expect(deliverEmail(withJobs(broken), sender(), message("Nothing works"), { policy })).resolves.toEqual({ status: "failed" });
    await expect(sendEmailSafely(message("Through the app's sender"), { outbox: withJobs(broken), sender: sender() })).resolves.toEqual({
      sent: false,
      queued: false,
    });
  });

  it("does not hold the caller longer than waitMs for a slow provider; the attempt still completes and marks its row", async () => {
    // Postmark holds its answer until the test lets it go: the caller is answered while it still waits.
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    postmark.respondWith(async (request) => {
      await held;
      return {
        status: 200,
        body: { To: (request.body as { To: string }).To, MessageID: crypto.randomUUID(), ErrorCode: 0, Message: "OK" },
      };
    });
    const result = await deliverEmail(withJobs(database.db), sender(), message("Slow"), { policy, waitMs: 50 });
    expect(result.status).toBe("queued");
    const id = (result as { id: string }).id;
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1 });
    answer();
    await expect.poll(async () => (await rowOf(id))?.status).toBe("sent");
    expect(postmark.requests).toHaveLength(1);
  });

  it("uses a growing delay by default: 1, 4, 16, 64 minutes, then every 4 hours", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => DEFAULT_DELIVERY_POLICY.backoffMs(attempt) / MINUTE)).toEqual([
      1, 4, 16, 64, 240, 240, 240,
    ]);
    expect(DEFAULT_DELIVERY_POLICY.maxAttempts).toBe(8);
  });
});

/** store_emails_total for one outcome, in this process. */
async function emailsCounted(outcome: "sent" | "failed" | "given_up"): Promise<number> {
  return (await emails.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}
