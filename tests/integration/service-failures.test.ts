import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { generateDescription, storedDescription } from "~/catalog/descriptions.server";
import { quoteCarrierShipping, SHIPPING_FAILED_MESSAGE } from "~/checkout/shipping-quote.server";
import { singleCheckoutTotals } from "~/checkout/single-totals";
import { emailDeliveries, orders, productDescriptions } from "~/db/schema";
import { confirmationEmailState, confirmationReference, sendOrderConfirmation } from "~/orders/order-email.server";
import { createRateLimiter } from "~/security/rate-limit.server";
import { retryDueEmails } from "~/services/email/deliveries.server";
import { createPostmarkSender } from "~/services/email/postmark-sender.server";
import { createEasyPostRates } from "~/services/shipping/easypost-rates.server";
import { seasoningParcel } from "~/services/shipping/parcel";
import { createOpenAITextGenerator } from "~/services/text/openai-generator.server";
import { startFakeEasyPost, easyPostError } from "../fakes/easypost";
import type { FakeHandler, FakeServer } from "../fakes/fake-http-server";
import { openAIError, startFakeOpenAI } from "../fakes/openai";
import { postmarkError, startFakePostmark } from "../fakes/postmark";
import { testOrder } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { storeOf, TEST_ORIGIN, withJobs } from "../support/test-runtime";
import { parseConfig } from "~/config.server";
import { logger } from "~/observability/logger.server";

/** What the product page does: the stored description, else one generated (and stored) now. */
const reformattedDescription: typeof generateDescription = async (db, generator, product) =>
  (await storedDescription(db, product.key)) ?? generateDescription(db, generator, product);

/**
 * What a shopper sees when a real provider fails: never an error page. A failed
 * email is logged and queued for another attempt (the order stays recorded), a failed carrier rate
 * is the spec's message with shipping 0, a failed description is the plain text.
 */

const slow: FakeHandler = async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return { status: 200, body: {} };
};

const failures: Array<[string, (fake: FakeServer) => void]> = [
  ["a 4xx with an error body", (fake) => fake.respondWith(() => ({ status: 422, body: { error: { message: "Rejected" } } }))],
  ["a 500", (fake) => fake.respondWith(500, "<html>Internal Server Error</html>")],
  ["a malformed body", (fake) => fake.respondWith(200, "{ not json", { "content-type": "application/json" })],
  ["a time-out", (fake) => fake.respondWith(slow)],
];

describe.each(testDatabaseKinds())("provider failures on %s", (kind) => {
  let database: TestDatabase;
  let postmark: FakeServer;
  let openai: FakeServer;
  let easypost: FakeServer;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [postmark, openai, easypost] = await Promise.all([startFakePostmark(), startFakeOpenAI(), startFakeEasyPost()]);
  });
  afterAll(async () => {
    await Promise.all([postmark?.close(), openai?.close(), easypost?.close()]);
    await database?.dispose();
  });
  beforeEach(() => {
    for (const fake of [postmark, openai, easypost]) fake.reset();
    vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    return () => vi.restoreAllMocks();
  });

  describe("email through Postmark", () => {
    const config = parseConfig({ NODE_ENV: "test", PUBLIC_BASE_URL: TEST_ORIGIN });
    // A short time-out for the failing attempt (shorter than the slow answer), a generous one where Postmark answers.
    const sender = (timeoutSeconds = 60) =>
      createPostmarkSender({ serverToken: "t", from: "store@example.com", requestHost: postmark.host, useHttps: false, timeoutSeconds });
    let sequence = 0;

    async function recordOrder() {
      sequence += 1;
      const orderId = `FAIL${kind === "pglite" ? "P" : "Q"}${String(sequence).padStart(5, "2")}`;
      const [order] = await database.db.insert(orders).values(testOrder({ orderId })).returning();
      return order;
    }

    it.each(failures)("after %s the order stays, the email is queued, and its job sends it once", async (name, fail) => {
      const order = await recordOrder();
      if (name === "a 4xx with an error body") postmark.respondWith(() => postmarkError(300, "Invalid 'To' address."));
      else fail(postmark);

      const start = new Date();
      await expect(sendOrderConfirmation({ ...storeOf(database.db, config), emailSender: sender(0.3) }, order)).resolves.toBe("queued");
      expect(logger.error).toHaveBeenCalled();
      const [{ value }] = await database.db.select({ value: count() }).from(orders).where(eq(orders.orderId, order.orderId));
      expect(value).toBe(1);
      const [queued] = await database.db
        .select()
        .from(emailDeliveries)
        .where(eq(emailDeliveries.reference, confirmationReference(order.orderId)));
      expect(queued).toMatchObject({ status: "pending", attempts: 1, toAddress: "ada@example.com" });
      expect(queued?.lastError).toBeTruthy();
      expect(await confirmationEmailState(database.db, order.orderId)).toBe("pending");

      // Asking again neither sends nor queues a second copy.
      await expect(sendOrderConfirmation({ ...storeOf(database.db, config), emailSender: sender() }, order)).resolves.toBe("queued");

      postmark.reset();
      const later = new Date(start.getTime() + 2 * 60_000);
      const report = await retryDueEmails(withJobs(database.db), sender(), { now: later });
      expect(report).toMatchObject({ sent: 1, rescheduled: 0, failed: 0 });
      expect(postmark.requests).toHaveLength(1);
      expect(await confirmationEmailState(database.db, order.orderId)).toBe("sent");
      await expect(sendOrderConfirmation({ ...storeOf(database.db, config), emailSender: sender() }, order)).resolves.toBe("already-sent");
      expect((await retryDueEmails(withJobs(database.db), sender(), { now: new Date(later.getTime() + 3_600_000) })).claimed).toBe(0);
      expect(postmark.requests).toHaveLength(1);
    });
  });

  describe("carrier rates through EasyPost", () => {
    // As for Postmark: short only where the test wants it to run out.
    const rates = (timeoutMs = 60_000) => createEasyPostRates({ apiKey: "EZTK_test", baseUrl: easypost.url, timeoutMs });
    const address = { name: "Ada", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };

    it("quotes the carrier's rate when EasyPost answers", async () => {
      const outcome = await quoteCarrierShipping(
        createRateLimiter({ db: database.db, scale: 1 }),
        "198.51.100.7",
        { from: address, to: address, parcel: seasoningParcel(2) },
        rates(),
      );
      expect(outcome).toEqual({ status: "quoted", quote: { amountCents: 1085, carrier: "USPS", service: "Priority" } });
    });

    it.each(failures)("after %s the checkout shows the spec's message with shipping 0", async (_name, fail) => {
      if (_name === "a 4xx with an error body")
        easypost.respondWith(() => easyPostError(422, "ADDRESS.VERIFY.FAILURE", "Unable to verify"));
      else fail(easypost);
      const outcome = await quoteCarrierShipping(
        createRateLimiter({ db: database.db, scale: 1 }),
        "198.51.100.7",
        { from: address, to: address, parcel: seasoningParcel(2) },
        rates(300),
      );
      expect(outcome).toEqual({ status: "failed" });
      // What the page does with a failed quote (app/checkout/single-checkout.server.ts).
      const totals = singleCheckoutTotals({ unitPriceCents: 1599, quantity: 2, promoCode: "", seasoning: true, carrierShippingCents: 0 });
      expect(totals.shippingCents).toBe(0);
      expect(SHIPPING_FAILED_MESSAGE).toBe("Failed to calculate shipping cost. Please try again.");
    });
  });

  describe("descriptions through OpenAI", () => {
    const generator = () =>
      createOpenAITextGenerator({ apiKey: "sk-test", model: "gpt-4o-mini", baseURL: `${openai.url}/v1`, timeoutMs: 300, maxRetries: 0 });

    it.each(failures)("after %s the product shows its plain text and nothing is stored", async (name, fail) => {
      if (name === "a 4xx with an error body")
        openai.respondWith(() => openAIError(401, "Incorrect API key provided.", "invalid_request_error"));
      else fail(openai);
      const key = `blaze-fail-${kind}-${name.replace(/\W+/g, "-")}`;
      const text = await reformattedDescription(database.db, generator(), { key, description: "a sturdy grill\nmade of steel" });
      expect(text).toBe("a sturdy grill\nmade of steel");
      expect(await database.db.select().from(productDescriptions).where(eq(productDescriptions.productKey, key))).toEqual([]);
    });

    it("keeps showing a stored description without asking OpenAI", async () => {
      const key = `blaze-stored-${kind}`;
      await database.db.insert(productDescriptions).values({ productKey: key, description: "The **stored** text." });
      openai.respondWith(500, "down");
      expect(await reformattedDescription(database.db, generator(), { key, description: "raw" })).toBe("The **stored** text.");
      expect(openai.requests).toHaveLength(0);
    });
  });
});
