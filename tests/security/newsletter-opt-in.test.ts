import type { AppLoadContext } from "@remix-run/node";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, mailingList } from "~/db/schema";
import { NEWSLETTER_HONEYPOT_FIELD } from "~/mailing-list/newsletter";
import { signNewsletterToken } from "~/mailing-list/newsletter-links.server";
import { confirmedSubscribers } from "~/mailing-list/subscribe.server";
import { action as newsletterAction } from "~/routes/newsletter";
import { action as confirmAction, loader as confirmLoader } from "~/routes/newsletter_.confirm";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/newsletter_.unsubscribe";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Subscribing any address from anywhere used to subscribe it
 * at once. Now: double opt-in with a signed link, only confirmed addresses
 * count, every newsletter mail has an unsubscribe link and List-Unsubscribe
 * headers (one-click, RFC 8058), and a honeypot drops scripted sign-ups.
 */

type RouteArgs = { request: Request; params: Record<string, string>; context: AppLoadContext };
type DataResult<T> = { data: T; init: { status?: number } | null };

let visitor = 0;

/** Each request from its own address, so the per-address sign-up limit does not decide these tests. */
async function run<T>(handler: (args: RouteArgs) => Promise<unknown>, request: Request): Promise<T> {
  visitor += 1;
  try {
    return (await handler({
      request,
      params: {},
      context: testContext(runtime, { clientAddress: `198.51.100.${visitor % 250}:${visitor}` }),
    })) as T;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown as T;
    throw thrown;
  }
}

function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields), headers });
}

const signUp = (email: string, extra: Record<string, string> = {}) =>
  run<DataResult<{ status: string; message: string }>>(
    newsletterAction,
    formPost("/newsletter", { email, source: "footer", mode: "fetch", ...extra }),
  );

describe.each(testDatabaseKinds())("newsletter double opt-in on %s", (kind) => {
  let database: TestDatabase;
  let secret: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: "https://shop.example" });
    secret = runtime.sessionSecret;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    await database.db.delete(mailingList);
    await database.db.delete(emailOutbox);
  });

  const rowOf = async (email: string) =>
    (
      await database.db
        .select()
        .from(mailingList)
        .where(sql`lower(${mailingList.email}) = lower(${email})`)
    )[0];
  const mailsTo = (email: string) => database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
  const linkIn = (text: string, path: string) => {
    const found = text.match(new RegExp(`https://shop\\.example${path}\\?token=[^\\s"<>]+`));
    if (!found) throw new Error(`no ${path} link in: ${text}`);
    return new URL(found[0]);
  };

  it("stores a sign-up as pending and emails a signed confirmation link with an unsubscribe link and List-Unsubscribe headers", async () => {
    const answer = await signUp("fan@example.com");
    expect(answer.init?.status ?? 200).toBe(200);
    expect(answer.data.message).toBe("Thank you for joining our mailing list");
    expect(await rowOf("fan@example.com")).toMatchObject({ status: "pending", confirmedAt: null });
    expect(await confirmedSubscribers(database.db)).toEqual([]);

    const [mail] = await mailsTo("fan@example.com");
    expect(mail).toMatchObject({ tag: "newsletter-confirmation", subject: "Confirm your subscription to Outdoor Kitchen Outlet" });
    const confirmUrl = linkIn(mail!.textBody, "/newsletter/confirm");
    const unsubscribeUrl = linkIn(mail!.textBody, "/newsletter/unsubscribe");
    expect(mail!.htmlBody).toContain(confirmUrl.search.replace("?", ""));
    expect(mail!.htmlBody).toContain("Unsubscribe");
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<${unsubscribeUrl.href}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("confirms only through the emailed link, and only with a POST (opening the link changes nothing)", async () => {
    await signUp("owner@example.com");
    const [mail] = await mailsTo("owner@example.com");
    const confirmUrl = linkIn(mail!.textBody, "/newsletter/confirm");
    const token = confirmUrl.searchParams.get("token")!;

    const page = await run<DataResult<{ state: string }>>(
      confirmLoader,
      new Request(confirmUrl.href.replace("https://shop.example", TEST_ORIGIN)),
    );
    expect(page.data.state).toBe("valid");
    expect((await rowOf("owner@example.com"))?.status).toBe("pending");

    const confirmed = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/newsletter/confirm", { token }));
    expect(confirmed.data.outcome).toBe("confirmed");
    expect(await rowOf("owner@example.com")).toMatchObject({ status: "confirmed" });
    expect((await confirmedSubscribers(database.db)).map((row) => row.email)).toEqual(["owner@example.com"]);

    const again = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/newsletter/confirm", { token }));
    expect(again.data.outcome).toBe("already-confirmed");
    // Confirmed: signing up again is the spec's duplicate.
    expect((await signUp("OWNER@example.com")).data.message).toBe("This email is already registered.");
  });

  it("refuses forged, swapped, foreign and expired tokens, and changes nothing", async () => {
    await signUp("victim@example.com");
    const victim = (await rowOf("victim@example.com"))!;
    const forged = [
      "",
      "c.1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      signNewsletterToken("some-other-secret-that-is-long-enough-1", "confirm", victim.id),
      signNewsletterToken(secret, "unsubscribe", victim.id),
      signNewsletterToken(secret, "confirm", victim.id, new Date(Date.now() - 8 * 24 * 60 * 60 * 1000)),
    ];
    for (const token of forged) {
      const page = await run<DataResult<{ state: string }>>(
        confirmLoader,
        new Request(`${TEST_ORIGIN}/newsletter/confirm?token=${encodeURIComponent(token)}`),
      );
      expect(page.init?.status).toBe(400);
      const posted = await run<DataResult<{ outcome: string }>>(confirmAction, formPost("/newsletter/confirm", { token }));
      expect(posted.init?.status).toBe(400);
      expect(["invalid", "expired"]).toContain(posted.data.outcome);
    }
    expect((await rowOf("victim@example.com"))?.status).toBe("pending");
  });

  it("unsubscribes with the GET page's button or a mail program's one-click POST, never by opening the link", async () => {
    await signUp("leaver@example.com");
    const row = (await rowOf("leaver@example.com"))!;
    await database.db.update(mailingList).set({ status: "confirmed" }).where(eq(mailingList.id, row.id));
    const [mail] = await mailsTo("leaver@example.com");
    const unsubscribeUrl = linkIn(mail!.textBody, "/newsletter/unsubscribe");
    const local = unsubscribeUrl.href.replace("https://shop.example", TEST_ORIGIN);

    const page = await run<DataResult<{ valid: boolean }>>(unsubscribeLoader, new Request(local));
    expect(page.data.valid).toBe(true);
    expect((await rowOf("leaver@example.com"))?.status).toBe("confirmed");

    // RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click to the header's URL, from its own servers.
    const oneClick = new Request(local, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const done = await run<DataResult<{ outcome: string }>>(unsubscribeAction, oneClick);
    expect(done.init?.status).toBe(200);
    expect(done.data.outcome).toBe("unsubscribed");
    expect(await rowOf("leaver@example.com")).toMatchObject({ status: "unsubscribed" });
    expect(await confirmedSubscribers(database.db)).toEqual([]);

    // The page's button posts the token as a field; a forged one does nothing.
    const forged = await run<DataResult<{ outcome: string }>>(
      unsubscribeAction,
      formPost("/newsletter/unsubscribe", { token: signNewsletterToken("x".repeat(40), "unsubscribe", row.id) }),
    );
    expect(forged.init?.status).toBe(400);
  });

  it("drops a sign-up whose honeypot is filled: the same answer, nothing stored or sent", async () => {
    const answer = await signUp("bot@example.com", { [NEWSLETTER_HONEYPOT_FIELD]: "http://spam.example" });
    expect(answer.init?.status ?? 200).toBe(200);
    expect(answer.data.status).toBe("subscribed");
    expect(await rowOf("bot@example.com")).toBeUndefined();
    expect(await mailsTo("bot@example.com")).toEqual([]);
  });

  it("does not let the form flood a mailbox: one confirmation email per address per 10 minutes", async () => {
    for (let index = 0; index < 5; index += 1) expect((await signUp("target@example.com")).data.status).toBe("subscribed");
    expect(await mailsTo("target@example.com")).toHaveLength(1);
    const row = (await rowOf("target@example.com"))!;
    await database.db
      .update(mailingList)
      .set({ confirmationSentAt: new Date(Date.now() - 11 * 60_000) })
      .where(and(eq(mailingList.id, row.id)));
    await signUp("target@example.com");
    expect(await mailsTo("target@example.com")).toHaveLength(2);
  });

  it("refuses a cross-site sign-up (403) and stores nothing", async () => {
    const response = await run<Response>(
      newsletterAction,
      formPost(
        "/newsletter",
        { email: "csrf@example.com", mode: "fetch" },
        { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      ),
    );
    expect(response.status).toBe(403);
    expect(await rowOf("csrf@example.com")).toBeUndefined();
  });
});
