import type { AppLoadContext } from "@remix-run/node";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publicBaseUrl } from "~/config.server";
import { openDatabase } from "~/db/database.server";
import { emailDeliveries, emailOutbox, productStock, products, rateLimitCounters, stockAlerts } from "~/db/schema";
import { action as notifyMeAction, loader as notifyMeLoader } from "~/routes/notify-me";
import { action as confirmAction, loader as confirmLoader } from "~/routes/notify-me_.confirm";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/notify-me_.unsubscribe";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { STARTUP_STEPS } from "~/startup.server";
import type { StoreRuntime } from "~/store-runtime";
import { NOTIFY_ME_HONEYPOT_FIELD, NOTIFY_ME_MESSAGES } from "~/stock/notify-me";
import { signStockAlertToken } from "~/stock/stock-alert-links.server";
import {
  notifyBackInStock,
  requestStockAlert,
  scheduleBackInStock,
  STOCK_ALERT_RESEND_INTERVAL_MS,
  type StockAlertContext,
} from "~/stock/stock-alerts.server";
import { queueBackInStock } from "~/stock/back-in-stock.server";
import { seedStock, setOnHand } from "~/stock/stock.server";
import type { StartupReport } from "~/startup-report.server";
import { testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime, withJobs } from "../support/test-runtime";

/**
 * "Notify me when available" from the product page's form to the one email: double opt-in through the
 * emailed link (a POST confirms; opening the link changes nothing), refused for a product in stock or
 * unknown, limited per client and per email address, one email per confirmed subscriber when the product
 * is back however many runs of the job there are at once (on PostgreSQL through two connection pools, as
 * two processes), none for pending or unsubscribed ones, and tampered links refused with 400 and no change.
 */
const OUT = "blaze-9401";
const IN = "blaze-9402";
const OTHER_OUT = "blaze-9403";
const BASE = "https://shop.example";

type RouteArgs = { request: Request; params: Record<string, string>; context: AppLoadContext };
type DataResult<T> = { data: T; init: { status?: number; headers?: HeadersInit } | null };

describe.each(testDatabaseKinds())("Notify me when available on %s", (kind) => {
  let database: TestDatabase;
  let runtime: StoreRuntime;
  let alertContext: StockAlertContext;
  let visitor = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: BASE });
    alertContext = { secret: runtime.sessionSecret, baseUrl: BASE, storeName: runtime.config.STORE_NAME, sender: runtime.emailSender };
    await database.db.insert(products).values([testProduct(OUT, 90_000), testProduct(IN, 4_000), testProduct(OTHER_OUT, 12_000)]);
    expect(await seedStock(database.db, 0)).toBe(3);
  });
  beforeEach(async () => {
    for (const table of [stockAlerts, emailOutbox, emailDeliveries, rateLimitCounters]) await database.db.delete(table);
    await database.db.update(productStock).set({ onHand: 0, reserved: 0 });
    await database.db.update(productStock).set({ onHand: 10 }).where(eq(productStock.productKey, IN));
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** Each request from its own client address unless told, so the per-address limit decides only its own test. */
  async function run<T>(handler: (args: RouteArgs) => unknown, request: Request, clientAddress?: string): Promise<T> {
    visitor += 1;
    try {
      return (await handler({
        request,
        params: {},
        context: testContext(runtime, { clientAddress: clientAddress ?? `198.51.100.${visitor % 250}` }),
      })) as T;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown as T;
      throw thrown;
    }
  }
  const formPost = (path: string, fields: Record<string, string>) =>
    new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { Origin: TEST_ORIGIN } });
  const ask = (email: string, fields: Record<string, string> = {}, clientAddress?: string) =>
    run<Response>(notifyMeAction, formPost("/notify-me", { productKey: OUT, email, ...fields }), clientAddress);
  const askFetch = (email: string, fields: Record<string, string> = {}, clientAddress?: string) =>
    run<DataResult<{ status: string; message: string }>>(
      notifyMeAction,
      formPost("/notify-me", { productKey: OUT, email, mode: "fetch", ...fields }),
      clientAddress,
    );

  const alertOf = async (email: string, productKey = OUT) =>
    (
      await database.db
        .select()
        .from(stockAlerts)
        .where(and(eq(stockAlerts.productKey, productKey), sql`lower(${stockAlerts.email}) = lower(${email})`))
    )[0];
  const mailsTo = (email: string, tag?: string) =>
    database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), tag ? eq(emailOutbox.tag, tag) : undefined));
  const linkIn = (text: string, path: string) => {
    const found = text.match(new RegExp(`https://shop\\.example${path}\\?token=[^\\s"<>]+`));
    if (!found) throw new Error(`no ${path} link in: ${text}`);
    return new URL(found[0]);
  };
  const local = (url: URL) => `${TEST_ORIGIN}${url.pathname}${url.search}`;

  /** Asks, then confirms with the emailed link's button, as a subscriber does. */
  async function subscribe(email: string, productKey = OUT) {
    expect((await askFetch(email, { productKey })).data.status).toBe("sent");
    const [mail] = await mailsTo(email, "stock-alert-confirmation");
    const token = linkIn(mail!.textBody, "/notify-me/confirm").searchParams.get("token")!;
    const confirmed = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/notify-me/confirm", { token }));
    expect(confirmed.data.outcome).toBe("confirmed");
    return { mail: mail! };
  }

  it("stores a request as pending and emails one signed confirmation link, with the product and an unsubscribe link", async () => {
    const answer = await ask("fan@example.com");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe(`/product/${OUT}?notify=sent#notify-me`);
    expect(await alertOf("fan@example.com")).toMatchObject({ status: "pending", confirmedAt: null, sentAt: null });

    const mails = await mailsTo("fan@example.com");
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ tag: "stock-alert-confirmation", subject: `Confirm: email me when Test product ${OUT} is back in stock` });
    expect(mail!.textBody).toContain(`${BASE}/product/${OUT}`);
    linkIn(mail!.textBody, "/notify-me/confirm");
    const unsubscribeUrl = linkIn(mail!.textBody, "/notify-me/unsubscribe");
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<${unsubscribeUrl.href}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail!.textBody).not.toContain("fan@example.com");

    // Asking again within 10 minutes: the same answer, no second email; after them, a fresh link.
    expect(answer.headers.get("Location")).toBe((await ask("FAN@example.com")).headers.get("Location"));
    expect(await mailsTo("fan@example.com")).toHaveLength(1);
    const later = new Date(Date.now() + STOCK_ALERT_RESEND_INTERVAL_MS + 60_000);
    expect(
      await requestStockAlert(withJobs(database.db), { productKey: OUT, email: "fan@example.com" }, { ...alertContext, now: later }),
    ).toBe("sent");
    expect(await mailsTo("fan@example.com")).toHaveLength(2);
    expect(await database.db.select().from(stockAlerts)).toHaveLength(1);
  });

  it("confirms only with the link's button (opening it changes nothing), and says the same to a confirmed address asking again", async () => {
    await ask("owner@example.com");
    const [mail] = await mailsTo("owner@example.com");
    const confirmUrl = linkIn(mail!.textBody, "/notify-me/confirm");
    const token = confirmUrl.searchParams.get("token")!;

    const page = await run<DataResult<{ state: string; productTitle: string | null }>>(confirmLoader, new Request(local(confirmUrl)));
    expect(page.init?.status ?? 200).toBe(200);
    expect(page.data).toMatchObject({ state: "valid", productTitle: `Test product ${OUT}` });
    expect((await alertOf("owner@example.com"))?.status).toBe("pending");

    const confirmed = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/notify-me/confirm", { token }));
    expect(confirmed.data.outcome).toBe("confirmed");
    expect(await alertOf("owner@example.com")).toMatchObject({ status: "confirmed", confirmedAt: expect.any(Date) });
    const again = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/notify-me/confirm", { token }));
    expect(again.init?.status ?? 200).toBe(200);
    expect(again.data.outcome).toBe("already-confirmed");

    // A stranger asking for the confirmed address learns nothing, and its owner gets no email.
    const stranger = await askFetch("owner@example.com");
    expect(stranger.init?.status ?? 200).toBe(200);
    expect(stranger.data).toEqual({ status: "sent", message: NOTIFY_ME_MESSAGES.sent });
    expect(await mailsTo("owner@example.com")).toHaveLength(1);
    expect((await alertOf("owner@example.com"))?.status).toBe("confirmed");
  });

  it("refuses a product in stock or made to order (go and buy it) and one that does not exist, storing and sending nothing", async () => {
    const inStock = await askFetch("buyer@example.com", { productKey: IN });
    expect(inStock.init?.status).toBe(409);
    expect(inStock.data).toEqual({ status: "available", message: NOTIFY_ME_MESSAGES.available });
    expect((await ask("buyer@example.com", { productKey: IN })).headers.get("Location")).toBe(`/product/${IN}?notify=available#notify-me`);
    await database.db
      .update(productStock)
      .set({ policy: "made-to-order", leadTime: "4 - 6 weeks" })
      .where(eq(productStock.productKey, OTHER_OUT));
    try {
      expect((await askFetch("buyer@example.com", { productKey: OTHER_OUT })).data.status).toBe("available");
    } finally {
      await database.db.update(productStock).set({ policy: "tracked", leadTime: null }).where(eq(productStock.productKey, OTHER_OUT));
    }

    const unknown = await askFetch("buyer@example.com", { productKey: "blaze-0000000" });
    expect(unknown.init?.status).toBe(404);
    expect((await ask("buyer@example.com", { productKey: "blaze-0000000" })).headers.get("Location")).toBe("/");
    expect((await ask("buyer@example.com", { productKey: "../../evil" })).headers.get("Location")).toBe("/");

    const invalid = await askFetch("not-an-address");
    expect(invalid.init?.status).toBe(400);
    expect((await ask("not-an-address")).headers.get("Location")).toBe(`/product/${OUT}?notify=invalid#notify-me`);

    // A filled honeypot is answered like a person and dropped.
    const bot = await askFetch("bot@example.com", { [NOTIFY_ME_HONEYPOT_FIELD]: "https://spam.example" });
    expect(bot.data.status).toBe("sent");

    expect(await database.db.select().from(stockAlerts)).toEqual([]);
    expect(await database.db.select().from(emailOutbox)).toEqual([]);
    // GET /notify-me has nothing to show.
    expect((await run<Response>(notifyMeLoader, new Request(`${TEST_ORIGIN}/notify-me`))).headers.get("Location")).toBe("/");
  });

  it("limits requests per client address and per email address, with 429 and Retry-After", async () => {
    const address = "203.0.113.77";
    for (let i = 0; i < RATE_LIMITS.stockAlert.limit; i += 1) {
      expect((await askFetch(`reader${i}@example.com`, {}, address)).data.status).toBe("sent");
    }
    const limited = await askFetch("reader-last@example.com", {}, address);
    expect(limited.init?.status).toBe(429);
    expect(Number(new Headers(limited.init?.headers).get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.data).toEqual({ status: "rate-limited", message: NOTIFY_ME_MESSAGES["rate-limited"] });
    expect((await ask("reader-last@example.com", {}, address)).headers.get("Location")).toBe(
      `/product/${OUT}?notify=rate-limited#notify-me`,
    );
    expect(await alertOf("reader-last@example.com")).toBeUndefined();

    // One mailbox, asked about from many connections.
    for (let i = 0; i < RATE_LIMITS.stockAlertEmail.limit; i += 1) expect((await askFetch("target@example.com")).data.status).toBe("sent");
    const flooded = await askFetch("Target@Example.com");
    expect(flooded.init?.status).toBe(429);
    expect(await mailsTo("target@example.com")).toHaveLength(1);
  });

  it("emails each confirmed subscriber exactly once when the product is back, even with two runs at once, and nobody else", async () => {
    await subscribe("first@example.com");
    await subscribe("second@example.com");
    await subscribe("third@example.com");
    const { mail: otherMail } = await subscribe("other-product@example.com", OTHER_OUT);
    expect(otherMail.tag).toBe("stock-alert-confirmation");
    await ask("pending@example.com");
    const { mail } = await subscribe("gone@example.com");
    // The unsubscribe link, as a mail program's one-click POST (the token in the address).
    const unsubscribeUrl = linkIn(mail.textBody, "/notify-me/unsubscribe");
    const oneClick = await run<DataResult<{ outcome: string }>>(
      unsubscribeAction,
      new Request(local(unsubscribeUrl), {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(oneClick.data.outcome).toBe("unsubscribed");
    expect((await alertOf("gone@example.com"))?.status).toBe("unsubscribed");

    // Still out of stock: the job sends nothing.
    expect(await notifyBackInStock(withJobs(database.db), alertContext, OUT)).toBe(0);
    expect(await scheduleBackInStock(withJobs(database.db))).toBe(0);

    const restocked = await setOnHand(database.db, { productKey: OUT, onHand: 4, reason: "delivery", actor: "test" });
    expect(restocked).toMatchObject({ ok: true, backInStock: true });
    expect(await scheduleBackInStock(withJobs(database.db))).toBe(1);

    // Four runs at once (on PostgreSQL half of them through a pool of their own, as another process), then one more.
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const counts = await Promise.all(
        [database.db, second?.db, database.db, second?.db].map((db) => notifyBackInStock(withJobs(db ?? database.db), alertContext, OUT)),
      );
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(3);
    } finally {
      await second?.close();
    }
    expect(await notifyBackInStock(withJobs(database.db), alertContext, OUT)).toBe(0);

    const notices = await database.db.select().from(emailOutbox).where(eq(emailOutbox.tag, "back-in-stock"));
    expect(notices.map((notice) => notice.toAddress).sort()).toEqual(["first@example.com", "second@example.com", "third@example.com"]);
    const [notice] = notices;
    expect(notice!.subject).toBe(`Back in stock: Test product ${OUT}`);
    expect(notice!.textBody).toContain(`Order it here: ${BASE}/product/${OUT}`);
    const noticeUnsubscribe = linkIn(notice!.textBody, "/notify-me/unsubscribe");
    expect(notice!.headers).toEqual({
      "List-Unsubscribe": `<${noticeUnsubscribe.href}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });

    expect((await alertOf("first@example.com"))?.status).toBe("sent");
    expect(await alertOf("pending@example.com")).toMatchObject({ status: "pending", sentAt: null });
    expect(await alertOf("gone@example.com")).toMatchObject({ status: "unsubscribed", sentAt: null });
    expect(await alertOf("other-product@example.com", OTHER_OUT)).toMatchObject({ status: "confirmed" });
    expect(await mailsTo("pending@example.com", "back-in-stock")).toEqual([]);
    expect(await mailsTo("gone@example.com", "back-in-stock")).toEqual([]);
    expect(await scheduleBackInStock(withJobs(database.db))).toBe(0);
  });

  it("refuses a bad or tampered link with 400 and changes nothing", async () => {
    await ask("victim@example.com");
    const [mail] = await mailsTo("victim@example.com");
    const token = linkIn(mail!.textBody, "/notify-me/confirm").searchParams.get("token")!;
    const unsubscribeToken = linkIn(mail!.textBody, "/notify-me/unsubscribe").searchParams.get("token")!;
    const flip = (value: string) => `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`;
    const missingAlert = signStockAlertToken(runtime.sessionSecret, "confirm", "00000000-0000-4000-8000-000000000000");
    const before = await database.db.select().from(stockAlerts);

    for (const bad of [flip(token), token.replace(/^c\./, "u."), unsubscribeToken, missingAlert, "nope", "", "%00"]) {
      const page = await run<DataResult<{ state: string }>>(confirmLoader, new Request(`${TEST_ORIGIN}/notify-me/confirm?token=${bad}`));
      expect(page.init?.status, bad).toBe(400);
      const posted = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/notify-me/confirm", { token: bad }));
      expect(posted.init?.status, bad).toBe(400);
      expect(posted.data.outcome).toBe("invalid");
    }
    for (const bad of [
      flip(unsubscribeToken),
      token,
      "nope",
      signStockAlertToken(runtime.sessionSecret, "unsubscribe", "00000000-0000-4000-8000-000000000000"),
    ]) {
      const page = await run<DataResult<{ valid: boolean }>>(
        unsubscribeLoader,
        new Request(`${TEST_ORIGIN}/notify-me/unsubscribe?token=${bad}`),
      );
      expect(page.init?.status, bad).toBe(400);
      expect(page.data.valid).toBe(false);
      const posted = await run<DataResult<{ outcome: string }>>(unsubscribeAction, formPost("/notify-me/unsubscribe", { token: bad }));
      expect(posted.init?.status, bad).toBe(400);
    }
    expect(await database.db.select().from(stockAlerts)).toEqual(before);

    // The good unsubscribe link shows its page (and changes nothing until its button is pressed).
    const page = await run<DataResult<{ valid: boolean; productTitle: string }>>(
      unsubscribeLoader,
      new Request(`${TEST_ORIGIN}/notify-me/unsubscribe?token=${unsubscribeToken}`),
    );
    expect(page.data).toMatchObject({ valid: true, productTitle: `Test product ${OUT}` });
    expect(await database.db.select().from(stockAlerts)).toEqual(before);
  });

  describe("through the job queue the store starts", () => {
    afterEach(async () => {
      await runtime.jobs.stop();
    });

    it("sends the email once a restock queues stock.notify", async () => {
      const jobs = STARTUP_STEPS.find((step) => step.name === "jobs")!;
      const report = { step: () => Promise.reject(new Error("unused")), done: () => {}, note: () => {} } satisfies StartupReport;
      // The jobs step as the store runs it: it starts the queue, makes it this process's, and works stock.notify.
      expect(await jobs.run({ ...runtime, services: runtime, report }, () => {})).toMatch(/back-in-stock emails/);
      expect(publicBaseUrl(runtime.config)).toBe(BASE);
      await subscribe("queued@example.com");
      await setOnHand(database.db, { productKey: OUT, onHand: 2, reason: "delivery", actor: "test" });
      await queueBackInStock(runtime.jobs, [OUT]);
      await expect
        .poll(async () => (await mailsTo("queued@example.com", "back-in-stock")).length, { timeout: 30_000, interval: 250 })
        .toBe(1);
      expect((await alertOf("queued@example.com"))?.status).toBe("sent");
    }, 40_000);
  });
});
