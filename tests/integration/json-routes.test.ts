import type { AppLoadContext } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_RATE_LIMIT } from "~/contact/contact.server";
import { contactMessages, emailDeliveries, emailOutbox, orders, storeSettings } from "~/db/schema";
import { confirmationReference } from "~/orders/order-email.server";
import { action as calculateShipping, loader as calculateShippingLoader } from "~/routes/api.calculate-shipping";
import { action as contactPage } from "~/routes/contact";
import { action as contactForm } from "~/routes/contactForm";
import { action as generateText, MAX_PROMPT_CHARS } from "~/routes/generate-text";
import { action as newPurchase } from "~/routes/newPurchase";
import { CHAT_RATE_LIMIT } from "~/chat/rate-limit.server";
import { SHIPPING_QUOTE_RATE_LIMIT } from "~/checkout/shipping-quote.server";
import { testOrder } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

type Action = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<Response>;

/** The client address each request comes from, as the HTTP server would hand it over in the load context. */
const addresses = new WeakMap<Request, string>();
const call = (action: Action, request: Request) =>
  action({ request, params: {}, context: testContext(runtime, { clientAddress: addresses.get(request) ?? newVisitor() }) });

/** A client address no other test has used: rate limits are per address and live in the database. */
let visitors = 0;
const newVisitor = () => {
  visitors += 1;
  return `10.${Math.floor(visitors / 250) % 250}.${visitors % 250}.${(process.pid % 250) + 1}-${randomUUID()}`;
};

function jsonPost(path: string, body: unknown, { visitor = newVisitor(), headers = {} as Record<string, string> } = {}) {
  const request = new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  addresses.set(request, visitor);
  return request;
}

const toAddress = { name: "Ada Lovelace", street1: "1 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" };
const shippingOrder = {
  order: {
    from_address: { name: "Store", street1: "2200 Commerce St", city: "Dallas", state: "TX", zip: "75201", country: "US" },
    to_address: toAddress,
    parcel: { length: 5.75, width: 2.75, height: 11.5, weight: 23 },
  },
  service: "Priority",
  carrier: "USPS",
};
const contactData = { data: { name: "Dana", email: "dana@example.com", phone: "(512) 555-0100", message: "Do you ship to Alaska?" } };

describe.each(testDatabaseKinds())("the spec's JSON routes on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function rowCounts() {
    const tally = async (table: typeof orders | typeof contactMessages | typeof emailOutbox | typeof storeSettings) =>
      (await database.db.select({ value: count() }).from(table))[0].value;
    return {
      orders: await tally(orders),
      contactMessages: await tally(contactMessages),
      emailOutbox: await tally(emailOutbox),
      storeSettings: await tally(storeSettings),
    };
  }

  async function recordOrder(orderId: string) {
    await database.db.insert(orders).values(testOrder({ orderId }));
  }

  const orderEmails = async (orderId: string) =>
    (await database.db.select().from(emailOutbox).where(eq(emailOutbox.tag, "order-confirmation"))).filter((email) =>
      email.subject.includes(orderId),
    );

  describe("POST /newPurchase", () => {
    it("emails the recorded order's confirmation once, from the database, ignoring orderData", async () => {
      await recordOrder("NEWPUR2345");
      const body = { order_id: "newpur-2345", orderData: { total: 1, products: [{ title: "Tampered" }], email: "evil@example.com" } };

      const first = await call(newPurchase, jsonPost("/newPurchase", body));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ order_id: "NEWPUR2345", email: "sent" });

      const again = await call(newPurchase, jsonPost("/newPurchase", body));
      expect(await again.json()).toEqual({ order_id: "NEWPUR2345", email: "already-sent" });

      const emails = await orderEmails("NEWPUR2345");
      expect(emails).toHaveLength(1);
      expect(emails[0]?.toAddress).toBe("ada@example.com");
      expect(emails[0]?.textBody).toContain("Blaze grill");
      expect(emails[0]?.textBody).not.toContain("Tampered");
      const [delivery] = await database.db
        .select()
        .from(emailDeliveries)
        .where(eq(emailDeliveries.reference, confirmationReference("NEWPUR2345")));
      expect(delivery).toMatchObject({ status: "sent", attempts: 1 });
    });

    it("answers 404 for an unknown order and records nothing", async () => {
      const before = await rowCounts();
      const response = await call(newPurchase, jsonPost("/newPurchase", { order_id: "NOSUCH2345", orderData: {} }));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Order not found. Please check your Order ID." });
      expect(await rowCounts()).toEqual(before);
    });

    it("limits each visitor to 10 a minute, with Retry-After", async () => {
      const visitor = newVisitor();
      for (let index = 0; index < 10; index += 1) {
        expect((await call(newPurchase, jsonPost("/newPurchase", { order_id: "NOSUCH2345" }, { visitor }))).status).toBe(404);
      }
      const limited = await call(newPurchase, jsonPost("/newPurchase", { order_id: "NOSUCH2345" }, { visitor }));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.json()).error).toMatch(/Too many requests/);
    });
  });

  describe("POST /api/calculate-shipping", () => {
    it("answers a list whose first item's retail_rate is the USPS Priority cost", async () => {
      const response = await call(calculateShipping, jsonPost("/api/calculate-shipping", shippingOrder));
      expect(response.status).toBe(200);
      const rates = (await response.json()) as Array<{ retail_rate: string; carrier: string; service: string }>;
      // The offline estimate for 23 oz from Dallas (7) to Austin (7): $9.45 + one extra pound.
      expect(rates[0]).toMatchObject({ carrier: "USPS", service: "Priority", retail_rate: "11.05", currency: "USD" });
    });

    it("accepts an order without from_address (parcels leave from the warehouse)", async () => {
      const { from_address: _ignored, ...order } = shippingOrder.order;
      const response = await call(calculateShipping, jsonPost("/api/calculate-shipping", { ...shippingOrder, order }));
      expect(response.status).toBe(200);
    });

    it("limits quotes per visitor, with Retry-After", async () => {
      const visitor = newVisitor();
      for (let index = 0; index < SHIPPING_QUOTE_RATE_LIMIT; index += 1) {
        await call(calculateShipping, jsonPost("/api/calculate-shipping", shippingOrder, { visitor }));
      }
      const limited = await call(calculateShipping, jsonPost("/api/calculate-shipping", shippingOrder, { visitor }));
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    });

    it("answers GET with 405", async () => {
      const response = await (calculateShippingLoader as () => Response)();
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    });
  });

  describe("POST /contactForm", () => {
    it("keeps the message and emails the store, like the contact page", async () => {
      const before = await rowCounts();
      const response = await call(contactForm, jsonPost("/contactForm", contactData));
      expect(response.status).toBe(201);
      expect((await response.json()).message).toMatch(/^Thank you for contacting us!/);
      const after = await rowCounts();
      expect(after.contactMessages).toBe(before.contactMessages + 1);
      expect(after.emailOutbox).toBe(before.emailOutbox + 1);
    });

    it("names the invalid field with the page's message", async () => {
      const response = await call(contactForm, jsonPost("/contactForm", { data: { ...contactData.data, phone: "12" } }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: "Please enter a valid phone number (10-15 digits).",
        errors: { phone: "Please enter a valid phone number (10-15 digits)." },
      });
    });

    it("limits messages per visitor, with Retry-After", async () => {
      const visitor = newVisitor();
      for (let index = 0; index < CONTACT_RATE_LIMIT; index += 1) {
        expect((await call(contactForm, jsonPost("/contactForm", contactData, { visitor }))).status).toBe(201);
      }
      const before = await rowCounts();
      const limited = await call(contactForm, jsonPost("/contactForm", contactData, { visitor }));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await rowCounts()).toEqual(before);
    });
  });

  it("the contact page and /contactForm share one budget per visitor", async () => {
    const visitor = newVisitor();
    for (let index = 0; index < CONTACT_RATE_LIMIT; index += 1) {
      expect((await call(contactForm, jsonPost("/contactForm", contactData, { visitor }))).status).toBe(201);
    }
    const form = new FormData();
    for (const [key, value] of Object.entries(contactData.data)) form.set(key, value);
    const page = (await contactPage({
      request: new Request(`${TEST_ORIGIN}/contact`, { method: "POST", body: form }),
      params: {},
      context: testContext(runtime, { clientAddress: visitor }),
    })) as unknown as { data: { formError?: string }; init: { status: number; headers: Record<string, string> } };
    expect(page.init.status).toBe(429);
    expect(page.init.headers["Retry-After"]).toMatch(/^\d+$/);
    expect(page.data.formError).toMatch(/^You have sent several messages in a short time\. Please wait (a minute|\d+ minutes) /);
  });

  describe("POST /generate-text", () => {
    it("answers { text } from the chat's module", async () => {
      const response = await call(generateText, jsonPost("/generate-text", { prompt: "How long does shipping take?" }));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { text: string };
      expect(body.text).toMatch(/\S/);
      expect(Object.keys(body)).toEqual(["text"]);
    });

    it("refuses an empty or too long prompt", async () => {
      const empty = await call(generateText, jsonPost("/generate-text", { prompt: "   " }));
      expect(empty.status).toBe(400);
      const long = await call(generateText, jsonPost("/generate-text", { prompt: "a".repeat(MAX_PROMPT_CHARS + 1) }));
      expect(long.status).toBe(400);
      expect((await long.json()).error).toBe(`prompt: prompt must be ${MAX_PROMPT_CHARS} characters or fewer`);
    });

    it("counts against the chat's limit, with Retry-After", async () => {
      const visitor = newVisitor();
      for (let index = 0; index < CHAT_RATE_LIMIT; index += 1) {
        expect((await call(generateText, jsonPost("/generate-text", { prompt: "hello" }, { visitor }))).status).toBe(200);
      }
      const limited = await call(generateText, jsonPost("/generate-text", { prompt: "hello" }, { visitor }));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  const routes: Array<{ path: string; action: Action; good: unknown }> = [
    { path: "/newPurchase", action: newPurchase, good: { order_id: "NOSUCH2345" } },
    { path: "/api/calculate-shipping", action: calculateShipping, good: shippingOrder },
    { path: "/contactForm", action: contactForm, good: contactData },
    { path: "/generate-text", action: generateText, good: { prompt: "hello" } },
  ];

  describe.each(routes)("bad requests to $path", ({ path, action, good }) => {
    async function expectRefused(request: Request, status: number) {
      const before = await rowCounts();
      const response = await call(action, request);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      const body = (await response.json()) as { error?: unknown };
      expect(typeof body.error).toBe("string");
      expect(await rowCounts()).toEqual(before);
      return body.error as string;
    }

    it("malformed JSON -> 400", async () => {
      expect(await expectRefused(jsonPost(path, "{ not json"), 400)).toBe("The payload is not valid JSON.");
      await expectRefused(jsonPost(path, ""), 400);
    });

    it("wrong content type -> 415", async () => {
      const form = new Request(`${TEST_ORIGIN}${path}`, {
        method: "POST",
        headers: { origin: TEST_ORIGIN },
        body: new URLSearchParams({ prompt: "x" }),
      });
      await expectRefused(form, 415);
      await expectRefused(jsonPost(path, good, { headers: { "content-type": "text/plain" } }), 415);
    });

    it("not an object, missing or extra fields, wrong types -> 400 naming the problem", async () => {
      await expectRefused(jsonPost(path, []), 400);
      await expectRefused(jsonPost(path, "null"), 400);
      expect(await expectRefused(jsonPost(path, {}), 400)).toMatch(/^\S+ is required\.$/);
      expect(await expectRefused(jsonPost(path, { ...(good as object), sneaky: true }), 400)).toBe("Unexpected field: sneaky.");
      const firstKey = Object.keys(good as object)[0] as string;
      await expectRefused(jsonPost(path, { ...(good as object), [firstKey]: 42 }), 400);
    });

    it("oversized body -> 413, declared or not", async () => {
      const huge = JSON.stringify({ padding: "x".repeat(200_000) });
      await expectRefused(jsonPost(path, huge), 413);
      const chunked = new Request(`${TEST_ORIGIN}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: TEST_ORIGIN },
        body: new ReadableStream({
          start(controller) {
            for (let index = 0; index < 20; index += 1) controller.enqueue(new TextEncoder().encode("x".repeat(10_000)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      await expectRefused(chunked, 413);
    });

    it("cross-site -> 403", async () => {
      await expectRefused(jsonPost(path, good, { headers: { origin: "https://evil.example" } }), 403);
      await expectRefused(jsonPost(path, good, { headers: { "sec-fetch-site": "cross-site" } }), 403);
    });

    it("GET -> 405", async () => {
      const response = await call(action, new Request(`${TEST_ORIGIN}${path}`));
      expect(response.status).toBe(405);
    });
  });

  it("calculate-shipping refuses addresses outside the US and impossible parcels", async () => {
    const bad = [
      { ...shippingOrder, order: { ...shippingOrder.order, to_address: { ...toAddress, country: "CA" } } },
      { ...shippingOrder, order: { ...shippingOrder.order, to_address: { ...toAddress, zip: "M5V 3L9" } } },
      { ...shippingOrder, order: { ...shippingOrder.order, to_address: { ...toAddress, state: "Texas" } } },
      { ...shippingOrder, order: { ...shippingOrder.order, parcel: { ...shippingOrder.order.parcel, weight: -1 } } },
      { ...shippingOrder, order: { ...shippingOrder.order, parcel: { ...shippingOrder.order.parcel, length: 1e9 } } },
      { ...shippingOrder, service: "Express" },
      { ...shippingOrder, carrier: "UPS" },
    ];
    for (const body of bad) {
      const response = await call(calculateShipping, jsonPost("/api/calculate-shipping", body));
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});
