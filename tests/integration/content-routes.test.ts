import { eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contactMessages, emailOutbox, mailingList, products } from "~/db/schema";
import { isUniqueViolation, subscribe } from "~/mailing-list/subscribe.server";
import { action as contactAction } from "~/routes/contact";
import { loader as loveRubLoader } from "~/routes/love-rub";
import { action as newsletterAction } from "~/routes/newsletter";
import { sendEmailSafely } from "~/services/email/index.server";
import { findOutboxEmail, listOutboxEmails, outboxWriter } from "~/services/email/outbox.server";
import { createOutboxSender } from "~/services/email/outbox-sender.server";
import { testProduct } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { testContext, testRuntime, withJobs } from "../support/test-runtime";

type DataResult<T> = { data: T; init: { status?: number } | null };

let runtime: StoreRuntime;

function post(path: string, fields: Record<string, string>): Request {
  return new Request(`http://store.test${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

async function runAction<T>(
  action: (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<unknown>,
  request: Request,
): Promise<T> {
  return (await action({ request, params: {}, context: testContext(runtime) })) as T;
}

describe.each(testDatabaseKinds())("content routes on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = { ...testRuntime(database), sessionSecret: "s".repeat(32) };
  });
  afterAll(async () => {
    await database?.dispose();
  });

  describe("mailing list", () => {
    const newsletter = {
      secret: "s".repeat(32),
      baseUrl: "http://store.test",
      storeName: "Outdoor Kitchen Outlet",
      sender: createOutboxSender(
        outboxWriter(() => database.db),
        "sales@example.com",
      ),
    };

    it("keeps an address once, whatever its case; a confirmed one is a duplicate", async () => {
      expect(await subscribe(withJobs(database.db), "griller@example.com", newsletter)).toBe("subscribed");
      expect(await subscribe(withJobs(database.db), "Griller@Example.com", newsletter)).toBe("subscribed");
      await database.db
        .update(mailingList)
        .set({ status: "confirmed" })
        .where(sql`lower(${mailingList.email}) = 'griller@example.com'`);
      expect(await subscribe(withJobs(database.db), "Griller@Example.com", newsletter)).toBe("duplicate");
      expect(await subscribe(withJobs(database.db), "  griller@example.com ", newsletter)).toBe("duplicate");
      const rows = await database.db
        .select()
        .from(mailingList)
        .where(sql`lower(${mailingList.email}) = 'griller@example.com'`);
      expect(rows).toHaveLength(1);
    });

    it("reports any other database error as a failure, and logs it", async () => {
      const logger = { error: vi.fn() };
      const broken = {
        insert: () => ({
          values: () => ({
            onConflictDoNothing: () => ({
              returning: async () => {
                throw Object.assign(new Error("connection lost"), { code: "08006" });
              },
            }),
          }),
        }),
      } as unknown as typeof database.db;
      expect(await subscribe(withJobs(broken), "x@example.com", { ...newsletter, logger })).toBe("failed");
      expect(logger.error).toHaveBeenCalledOnce();
    });

    it("recognizes a unique violation through drizzle's wrapper", async () => {
      const error = await database.db
        .insert(mailingList)
        .values({ email: "griller@example.com" })
        .then(() => null)
        .catch((caught: unknown) => caught);
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(new Error("other"))).toBe(false);
    });
  });

  describe("POST /newsletter", () => {
    it("answers a script-enhanced form with data and a status", async () => {
      const ok = await runAction<DataResult<{ status: string; message: string; email: string }>>(
        newsletterAction,
        post("/newsletter", { email: "fetch@example.com", source: "footer", mode: "fetch" }),
      );
      expect(ok.data).toEqual({ source: "footer", status: "subscribed", message: "Thank you for joining our mailing list", email: "" });

      await database.db
        .update(mailingList)
        .set({ status: "confirmed" })
        .where(sql`lower(${mailingList.email}) = 'fetch@example.com'`);
      const again = await runAction<DataResult<{ status: string; message: string }>>(
        newsletterAction,
        post("/newsletter", { email: "FETCH@example.com", source: "popup", mode: "fetch" }),
      );
      expect(again.init?.status).toBe(409);
      expect(again.data.message).toBe("This email is already registered.");

      const invalid = await runAction<DataResult<{ message: string; email: string }>>(
        newsletterAction,
        post("/newsletter", { email: "fetch@example", source: "popup", mode: "fetch" }),
      );
      expect(invalid.init?.status).toBe(400);
      expect(invalid.data).toMatchObject({ message: "Please enter a valid email address.", email: "fetch@example" });
    });

    it("sends a plain form post back to its page with the result", async () => {
      const response = await runAction<Response>(
        newsletterAction,
        post("/newsletter", { email: "plain@example.com", source: "footer", redirectTo: "/products/all/all?page=2" }),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe("/products/all/all?page=2&newsletter=subscribed&newsletter_source=footer#newsletter");

      const invalid = await runAction<Response>(
        newsletterAction,
        post("/newsletter", { email: "nope", source: "footer", redirectTo: "/contact" }),
      );
      expect(invalid.headers.get("Location")).toBe("/contact?newsletter=invalid&newsletter_source=footer&newsletter_email=nope#newsletter");
    });

    it("never redirects to another site", async () => {
      for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
        const response = await runAction<Response>(newsletterAction, post("/newsletter", { email: "x", source: "footer", redirectTo }));
        expect(response.headers.get("Location")).toMatch(/^\/\?newsletter=invalid/);
      }
    });

    it("refuses a body that is not a form with a readable 415, not a server error", async () => {
      const request = new Request("http://store.test/newsletter", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      const response = await runAction<Response>(newsletterAction, request).catch((thrown: Response) => thrown);
      expect(response.status).toBe(415);
      expect(await response.text()).toContain("accepts only a web form");
    });
  });

  describe("contact", () => {
    const message = { name: "Dana Smith", email: "dana@example.com", phone: "(512) 555-0100", message: "Do you ship to Alaska?\nThanks" };

    it("keeps the message, emails the store through the outbox and redirects to the thank-you", async () => {
      const response = await runAction<Response>(contactAction, post("/contact", message));
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe("/contact?sent=1");

      const [stored] = await database.db.select().from(contactMessages).where(eq(contactMessages.email, "dana@example.com"));
      expect(stored).toMatchObject({ name: "Dana Smith", phone: "(512) 555-0100", message: "Do you ship to Alaska?\nThanks" });

      // With POSTMARK_SERVER_TOKEN in a local .env the email goes to Postmark instead of the outbox.
      if (runtime.config.POSTMARK_SERVER_TOKEN) return;
      const [email] = await listOutboxEmails(database.db);
      expect(email).toMatchObject({
        toAddress: runtime.config.STORE_EMAIL,
        subject: "New contact message from Dana Smith",
        tag: "contact-message",
      });
      const full = await findOutboxEmail(database.db, email.id);
      expect(full?.textBody).toContain("Do you ship to Alaska?");
      expect(full?.htmlBody).toContain("Do you ship to Alaska?<br>");
    });

    it("answers 400 with the errors and the typed values", async () => {
      const result = await runAction<DataResult<{ errors: Record<string, string>; values: Record<string, string> }>>(
        contactAction,
        post("/contact", { ...message, email: "dana@", message: "" }),
      );
      expect(result.init?.status).toBe(400);
      expect(result.data.errors).toEqual({ email: "Please enter a valid email address.", message: "Please enter a message." });
      expect(result.data.values.email).toBe("dana@");
    });

    it("drops a bot's message silently", async () => {
      const before = await database.db.select().from(contactMessages);
      const response = await runAction<Response>(
        contactAction,
        post("/contact", { ...message, email: "bot@example.com", company_website: "http://spam.example" }),
      );
      expect(response.headers.get("Location")).toBe("/contact?sent=1");
      expect(await database.db.select().from(contactMessages)).toHaveLength(before.length);
    });
  });

  describe("email outbox", () => {
    it("writes rows through the outbox sender and reads them back newest first", async () => {
      const sender = createOutboxSender(
        outboxWriter(() => database.db),
        "sales@example.com",
      );
      await sendEmailSafely({ to: "a@example.com", subject: "First", text: "One" }, { sender });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const result = await sendEmailSafely(
        { to: "b@example.com", subject: "Second", text: "Two https://example.com/x", html: "<p>Two</p>", tag: "test" },
        { sender },
      );
      expect(result.sent).toBe(true);
      const emails = await listOutboxEmails(database.db);
      expect(emails[0]).toMatchObject({ subject: "Second", toAddress: "b@example.com", tag: "test" });
      expect(emails.findIndex((email) => email.subject === "First")).toBeGreaterThan(0);
      const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.subject, "Second"));
      expect(row).toMatchObject({ fromAddress: "sales@example.com", htmlBody: "<p>Two</p>" });
    });

    it("finds nothing for an unknown or malformed id", async () => {
      expect(await findOutboxEmail(database.db, "not-a-uuid")).toBeNull();
      expect(await findOutboxEmail(database.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
    });
  });

  describe("LOVE RUB landing", () => {
    it("falls back to 15.99 before the catalog is loaded, then reads the price from the products table", async () => {
      expect(
        await loveRubLoader({ request: new Request("http://store.test/love-rub"), params: {}, context: testContext(runtime) }),
      ).toEqual({ priceCents: 1599, image: null });
      await database.db
        .insert(products)
        .values(testProduct("custom_product-LOVE-RUB-001", 1699, { image: "/images/products/custom_product/LOVE-RUB-001/1.svg" }));
      expect(
        await loveRubLoader({ request: new Request("http://store.test/love-rub"), params: {}, context: testContext(runtime) }),
      ).toEqual({ priceCents: 1699, image: "/images/products/custom_product/LOVE-RUB-001/1.svg" });
    });
  });
});
