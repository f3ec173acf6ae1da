import { createHash } from "node:crypto";
import { createCookie, createCookieSessionStorage, type AppLoadContext } from "@remix-run/node";
import { is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as schema from "~/db/schema";
import { orderStatusChanges, orders, rateLimitCounters, staffLoginAttempts, staffSessions, staffUsers } from "~/db/schema";
import { loader as adminLoader } from "~/routes/admin";
import * as adminRoute from "~/routes/admin";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/_staff.dashboard";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { action as logoutAction, loader as logoutLoader } from "~/routes/_staff.logout";
import {
  changeStaffPassword,
  createStaffAccount,
  DuplicateStaffEmailError,
  revokeStaffSessionsByEmail,
  verifyStaffCredentials,
} from "~/staff/accounts.server";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import { dashboardTiles, listOrders, orderDetail, PAGE_SIZE, updateOrderStatus } from "~/staff/dashboard.server";
import { DEMO_STAFF_EMAIL, ensureDemoStaffAccount } from "~/staff/demo-account.server";
import { LOCKOUT_LIMITS, LOCKOUT_WINDOW_MS } from "~/staff/lockout.server";
import { SESSION_IDLE_MS } from "~/staff/session.server";
import { testClock } from "../support/test-clock";
import { parseConfig } from "~/config.server";
import { testOrder } from "../support/shopping-fixtures";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime, withJobs } from "../support/test-runtime";
import { logger } from "~/observability/logger.server";

let runtime: StoreRuntime;

const EMAIL = "staff@example.com";
const PASSWORD = "Correct-Horse-Battery-42";

type Outcome = { status: number; headers: Headers; data: Record<string, unknown> | null; location: string | null };
type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The client address the HTTP server would hand the routes (load context); each test gets its own. */
let currentAddress = "192.0.2.1";
let addressCount = 0;

/** Calls a loader or action like Remix does and flattens its answer (thrown redirects included). */
async function call(fn: RouteFn, request: Request, clientAddress = currentAddress): Promise<Outcome> {
  let result: unknown;
  try {
    result = await fn({ request, params: {}, context: testContext(runtime, { clientAddress }) });
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) {
    return { status: result.status, headers: result.headers, data: null, location: result.headers.get("Location") };
  }
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data, location: null };
  }
  return { status: 200, headers: new Headers(), data: result as Record<string, unknown>, location: null };
}

function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return new Request(`${TEST_ORIGIN}${path}`, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } });
}

function post(path: string, values: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    body: formData(values),
    headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** A browser on the sign-in page: its cookie and the form's CSRF token. */
async function openLoginPage(path = "/login", headers: Record<string, string> = {}) {
  const page = await call(loginLoader as RouteFn, get(path, undefined, headers));
  expect(page.status).toBe(200);
  return { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf), redirectTo: String(page.data!.redirectTo) };
}

async function attemptSignIn(
  email: string,
  password: string,
  headers: Record<string, string> = {},
  path = "/login",
  address = currentAddress,
) {
  const browser = await openLoginPage(path, headers);
  return call(
    loginAction as RouteFn,
    post(path, { email, password, csrf: browser.csrf, redirectTo: browser.redirectTo }, browser.cookie, headers),
    address,
  );
}

/** A signed-in staff browser: its cookie and the CSRF token the dashboard hands out. */
async function signIn(email = EMAIL, password = PASSWORD) {
  const result = await attemptSignIn(email, password);
  expect(result.status).toBe(303);
  const cookie = cookieFrom(result.headers.get("Set-Cookie"));
  const dashboard = await call(dashboardLoader as RouteFn, get("/dashboard", cookie));
  expect(dashboard.status).toBe(200);
  return { cookie: cookieFrom(dashboard.headers.get("Set-Cookie")), csrf: String(dashboard.data!.csrf) };
}

describe.each(testDatabaseKinds())("staff sign-in and dashboard on %s", (kind) => {
  let database: TestDatabase;
  const clock = testClock();
  const delays = clock.slept;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, {}, { clock });
    await createStaffAccount(database.db, { email: EMAIL, password: PASSWORD, role: "staff" });
  });

  afterAll(async () => {
    await database?.dispose();
  });

  beforeEach(async () => {
    delays.length = 0;
    clock.follow(() => Date.now());
    await database.db.delete(orderStatusChanges);
    await database.db.delete(orders);
    await database.db.delete(staffLoginAttempts);
    await database.db.delete(rateLimitCounters);
    addressCount += 1;
    currentAddress = `192.0.2.${addressCount % 250}`;
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function statusOf(orderId: string) {
    const [row] = await database.db
      .select({ status: orders.status })
      .from(orders)
      .where(sql`${orders.orderId} = ${orderId}`);
    return row?.status;
  }

  async function auditRows() {
    return database.db.select().from(orderStatusChanges);
  }

  describe("the guard", () => {
    it("sends anyone without a session from every staff loader and action to /login, and back afterwards", async () => {
      const [order] = await database.db.insert(orders).values(testOrder()).returning();
      const statusChange = { intent: "status", orderId: order.orderId, status: "Shipped", csrf: "anything" };
      const attempts: Array<[RouteFn, Request, string]> = [
        [dashboardLoader as RouteFn, get("/dashboard?order=X&q=ada"), "/dashboard?order=X&q=ada"],
        [dashboardAction as RouteFn, post(`/dashboard?order=${order.orderId}`, statusChange), `/dashboard?order=${order.orderId}`],
        [logoutLoader as RouteFn, get("/logout"), "/logout"],
        [logoutAction as RouteFn, post("/logout", { csrf: "x" }), "/logout"],
        [adminLoader as RouteFn, get("/admin"), "/admin"],
      ];
      for (const [fn, request, back] of attempts) {
        const outcome = await call(fn, request);
        expect(outcome.status).toBe(303);
        expect(outcome.location).toBe(`/login?${new URLSearchParams({ redirectTo: back })}`);
      }
      expect(await statusOf(order.orderId)).toBe("Approved");
      expect(await auditRows()).toHaveLength(0);
    });

    it("refuses a tampered cookie and one signed with another secret", async () => {
      const [order] = await database.db.insert(orders).values(testOrder()).returning();
      const [staff] = await database.db.select().from(staffUsers);
      const forger = createCookieSessionStorage({ cookie: { name: "staff_session", secrets: ["not-the-store-secret-0123456789abcdef"] } });
      const session = await forger.getSession();
      session.set("staffId", staff.id);
      session.set("lastSeen", Date.now());
      session.set("csrf", "forged-token-forged-token-forged-token-123");
      const forged = cookieFrom(await forger.commitSession(session));
      // Signed with the store's own secret, but naming a session the server never recorded.
      const madeUp = cookieFrom(
        await createCookie("staff_session", { secrets: ["test-secret-that-is-long-enough-0123456789"] }).serialize({ sid: "A".repeat(43) }),
      );
      const { cookie } = await signIn();
      const tampered = cookie.replace(/.(?=\.)/, (c) => (c === "A" ? "B" : "A"));
      for (const bad of [forged, madeUp, tampered, "staff_session=e30%3D", "staff_session="]) {
        expect((await call(dashboardLoader as RouteFn, get("/dashboard", bad))).location).toMatch(/^\/login\?/);
        const outcome = await call(
          dashboardAction as RouteFn,
          post(
            "/dashboard",
            { intent: "status", orderId: order.orderId, status: "Shipped", csrf: "forged-token-forged-token-forged-token-123" },
            bad,
          ),
        );
        expect(outcome.location).toMatch(/^\/login\?/);
      }
      expect(await statusOf(order.orderId)).toBe("Approved");
    });

    it("changes nothing when a signed-in POST has a missing or wrong CSRF token", async () => {
      const [order] = await database.db.insert(orders).values(testOrder()).returning();
      const browser = await signIn();
      const other = await signIn();
      expect(other.csrf).not.toBe(browser.csrf);
      for (const csrf of [undefined, "", "x".repeat(43), other.csrf]) {
        const values: Record<string, string> = { intent: "status", orderId: order.orderId, status: "Shipped" };
        if (csrf !== undefined) values.csrf = csrf;
        const outcome = await call(dashboardAction as RouteFn, post("/dashboard", values, browser.cookie));
        expect(outcome.status).toBe(403);
        expect(outcome.data).toMatchObject({ flash: { kind: "error" } });
      }
      expect(await statusOf(order.orderId)).toBe("Approved");
      expect(await auditRows()).toHaveLength(0);

      // Sign-out without the token does not sign out either.
      const logout = await call(logoutAction as RouteFn, post("/logout", { csrf: other.csrf }, browser.cookie));
      expect(logout.status).toBe(403);
      expect((await call(dashboardLoader as RouteFn, get("/dashboard", browser.cookie))).status).toBe(200);
    });

    it("signs out an idle session after 12 hours and rolls the expiry on every request", async () => {
      let now = Date.now();
      clock.follow(() => now);
      let { cookie } = await signIn();
      const visit = async () => {
        const outcome = await call(dashboardLoader as RouteFn, get("/dashboard", cookie));
        if (outcome.status === 200) cookie = cookieFrom(outcome.headers.get("Set-Cookie"));
        return outcome;
      };
      now += SESSION_IDLE_MS - 60_000;
      expect((await visit()).status).toBe(200);
      now += SESSION_IDLE_MS - 60_000;
      const rolled = await visit();
      expect(rolled.status).toBe(200);
      expect(rolled.headers.get("Set-Cookie")).toMatch(/Max-Age=43200/);
      now += SESSION_IDLE_MS + 1000;
      const expired = await visit();
      expect(expired.status).toBe(303);
      expect(expired.location).toBe("/login?redirectTo=%2Fdashboard");
      expect(expired.headers.get("Set-Cookie")).toMatch(/staff_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    });

    it("sends /admin, the older screen, through the same sign-in to the dashboard; it takes no form", async () => {
      // Its only action is the readable 405 every GET-only resource route answers (refuseNonGet).
      const refused = adminRoute.action();
      expect([refused.status, refused.headers.get("Allow")]).toEqual([405, "GET, HEAD"]);
      const { cookie } = await signIn();
      const outcome = await call(adminLoader as RouteFn, get("/admin?q=ada", cookie));
      expect(outcome.status).toBe(303);
      expect(outcome.location).toBe("/dashboard?q=ada");
    });

    it("signs out with the token and then refuses the cleared cookie", async () => {
      const browser = await signIn();
      const outcome = await call(logoutAction as RouteFn, post("/logout", { csrf: browser.csrf }, browser.cookie));
      expect(outcome.status).toBe(303);
      expect(outcome.location).toBe("/login");
      const cleared = cookieFrom(outcome.headers.get("Set-Cookie"));
      expect(cleared).toBe("staff_session=");
      expect((await call(dashboardLoader as RouteFn, get("/dashboard", cleared))).location).toMatch(/^\/login/);
    });
  });

  describe("sign-in", () => {
    it("requires both fields", async () => {
      for (const [email, password] of [
        ["", PASSWORD],
        [EMAIL, ""],
        ["", ""],
        ["   ", PASSWORD],
      ]) {
        const outcome = await attemptSignIn(email, password);
        expect(outcome.status).toBe(400);
        expect(outcome.data).toMatchObject({ error: "Please fill in all fields." });
      }
    });

    it("gives one message for a wrong password and an unknown email", async () => {
      const wrong = await attemptSignIn(EMAIL, "wrong-password-123");
      const unknown = await attemptSignIn("nobody@example.com", PASSWORD);
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.data!.error).toBe("Invalid email or password.");
      expect(unknown.data!.error).toBe(wrong.data!.error);
      expect(unknown.data!.email).toBe("nobody@example.com");
      expect(JSON.stringify([wrong.data, unknown.data])).not.toContain(PASSWORD);
      expect(wrong.headers.get("Set-Cookie")).toBeNull();
      // An address the shared email rule refuses gets the same answer, without a database lookup.
      const malformed = await attemptSignIn("nobody@nowhere", PASSWORD);
      expect([malformed.status, malformed.data!.error]).toEqual([401, "Invalid email or password."]);
    });

    it("refuses a sign-in POST without the form's CSRF token, even with the right password", async () => {
      const browser = await openLoginPage();
      for (const [csrf, cookie] of [
        ["", browser.cookie],
        ["wrong", browser.cookie],
        [browser.csrf, undefined],
      ] as const) {
        const outcome = await call(loginAction as RouteFn, post("/login", { email: EMAIL, password: PASSWORD, csrf }, cookie));
        expect(outcome.status).toBe(403);
        expect(outcome.location).toBeNull();
      }
    });

    it("signs in with the right password into a signed, httpOnly, SameSite=Lax cookie, Secure over https", async () => {
      const outcome = await attemptSignIn(` ${EMAIL.toUpperCase()} `, PASSWORD);
      expect(outcome.status).toBe(303);
      expect(outcome.location).toBe("/dashboard");
      const setCookie = outcome.headers.get("Set-Cookie")!;
      expect(setCookie).toMatch(/^staff_session=[^;]+\.[^;]+;/);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);
      expect(setCookie).toMatch(/Max-Age=43200/);
      expect(setCookie).not.toMatch(/Secure/);
      // Secure follows the request's own scheme (the server builds it from the trusted protocol), never a header the client wrote.
      const claimed = await attemptSignIn(EMAIL, PASSWORD, { "X-Forwarded-Proto": "https" });
      expect(claimed.headers.get("Set-Cookie")).not.toMatch(/Secure/);
      const browser = await openLoginPage();
      const overHttps = new Request(`${TEST_ORIGIN.replace(/^http:/, "https:")}/login`, {
        method: "POST",
        body: formData({ email: EMAIL, password: PASSWORD, csrf: browser.csrf, redirectTo: browser.redirectTo }),
        headers: { Cookie: browser.cookie },
      });
      expect((await call(loginAction as RouteFn, overHttps)).headers.get("Set-Cookie")).toMatch(/; Secure/);
    });

    it("returns to the page the guard came from, but only on this site", async () => {
      const back = await attemptSignIn(EMAIL, PASSWORD, {}, `/login?redirectTo=${encodeURIComponent("/dashboard?order=ABC")}`);
      expect(back.location).toBe("/dashboard?order=ABC");
      for (const target of ["https://evil.example/", "//evil.example", "/login", "/logout"]) {
        const outcome = await attemptSignIn(EMAIL, PASSWORD, {}, `/login?redirectTo=${encodeURIComponent(target)}`);
        expect(outcome.location).toBe("/dashboard");
      }
    });

    it("sends a signed-in visitor of /login straight on", async () => {
      const { cookie } = await signIn();
      const outcome = await call(loginLoader as RouteFn, get("/login?redirectTo=%2Fdashboard%3Fq%3Dx", cookie));
      expect(outcome.location).toBe("/dashboard?q=x");
    });
  });

  describe("lock-out", () => {
    it("slows failures against one account from any addresses, refuses the 11th, and lets the owner's known device in at once", async () => {
      const now = new Date("2026-11-22T10:00:00Z").getTime();
      clock.follow(() => new Date(now));
      const owner = await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "198.51.100.7");
      expect(owner.status).toBe(303);
      const deviceCookie = cookieFrom(owner.headers.getSetCookie().find((value) => value.startsWith("staff_device=")) ?? null);
      expect(deviceCookie).toMatch(/^staff_device=./);

      for (let i = 0; i < 10; i += 1) {
        const outcome = await attemptSignIn(EMAIL, `wrong-password-${i}`, {}, "/login", `203.0.113.${i}`);
        expect(outcome.status).toBe(401);
      }
      expect(delays).toEqual([1000, 2000, 4000, 5000, 5000]);
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "203.0.113.99")).status).toBe(429);

      // The owner's browser has a budget of its own: neither refused nor slowed.
      delays.length = 0;
      const browser = await openLoginPage();
      const again = await call(
        loginAction as RouteFn,
        post("/login", { email: EMAIL, password: PASSWORD, csrf: browser.csrf }, `${browser.cookie}; ${deviceCookie}`),
        "198.51.100.7",
      );
      expect(again.status).toBe(303);
      // Other accounts were never slowed.
      expect((await attemptSignIn("someone@example.com", "whatever-password", {}, "/login", "198.51.100.8")).status).toBe(401);
      expect(delays).toEqual([]);
    });

    it("refuses one address after 10 failures across emails, with Retry-After, but not other addresses, and lifts", async () => {
      let now = new Date("2026-11-22T12:00:00Z").getTime();
      clock.follow(() => new Date(now));
      const attacker = "192.0.2.66";
      for (let i = 0; i < 10; i += 1) {
        expect((await attemptSignIn(`user${i}@example.com`, "wrong-password-1", {}, "/login", attacker)).status).toBe(401);
      }
      const refused = await attemptSignIn(EMAIL, PASSWORD, {}, "/login", attacker);
      expect(refused.status).toBe(429);
      expect(refused.data!.error).toBe("Too many failed sign-in attempts. Please wait 15 minutes and try again.");
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(800);
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "192.0.2.67")).status).toBe(303);
      now += LOCKOUT_WINDOW_MS + 1000;
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", attacker)).status).toBe(303);
    });

    it("counts every address of one IPv6 /64 as one address: the 11th failure from the /64 is refused, the next /64 is not", async () => {
      const now = new Date("2026-11-22T13:00:00Z");
      clock.follow(() => now);
      for (let i = 1; i <= LOCKOUT_LIMITS.address.refuseAfter; i += 1) {
        const outcome = await attemptSignIn(`user${i}@example.com`, "wrong-password-1", {}, "/login", `2001:db8:64:1::${i}`);
        expect(outcome.status).toBe(401);
      }
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "2001:db8:64:1:ffff::1")).status).toBe(429);
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "2001:db8:64:2::1")).status).toBe(303);
    });

    it("lets no more than 10 of a burst of parallel guesses from one address through", async () => {
      const now = new Date("2026-11-22T14:00:00Z");
      clock.follow(() => now);
      const browsers = await Promise.all(Array.from({ length: 16 }, () => openLoginPage()));
      const outcomes = await Promise.all(
        browsers.map((browser, i) =>
          call(loginAction as RouteFn, post("/login", { email: EMAIL, password: `guess-number-${i}`, csrf: browser.csrf }, browser.cookie)),
        ),
      );
      const checked = outcomes.filter((outcome) => outcome.status === 401).length;
      expect(checked).toBeLessThanOrEqual(10);
      expect(outcomes.filter((outcome) => outcome.status === 429).length).toBe(16 - checked);
    });

    it("lets no more than 10 of a burst of parallel guesses from 16 addresses against one account through", async () => {
      const now = new Date("2026-11-22T15:00:00Z");
      clock.follow(() => now);
      const browsers = await Promise.all(Array.from({ length: 16 }, () => openLoginPage()));
      const outcomes = await Promise.all(
        browsers.map((browser, i) =>
          call(
            loginAction as RouteFn,
            post("/login", { email: EMAIL, password: `guess-number-${i}`, csrf: browser.csrf }, browser.cookie),
            `203.0.113.${100 + i}`,
          ),
        ),
      );
      const checked = outcomes.filter((outcome) => outcome.status === 401).length;
      expect(checked).toBeLessThanOrEqual(LOCKOUT_LIMITS.account.refuseAfter);
      expect(outcomes.filter((outcome) => outcome.status === 429).length).toBe(16 - checked);
    });

    it("limits sign-in posts per address in the database, right or wrong, with Retry-After", async () => {
      // The address's window starts at its first post and lasts 5 minutes: the whole test.
      for (let i = 0; i < RATE_LIMITS.staffSignIn.limit; i += 1) {
        expect((await attemptSignIn(EMAIL, PASSWORD)).status).toBe(303);
      }
      const limited = await attemptSignIn(EMAIL, PASSWORD);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(limited.data!.error).toMatch(/^Too many failed sign-in attempts\. Please wait/);
      expect((await attemptSignIn(EMAIL, PASSWORD, {}, "/login", "198.51.100.99")).status).toBe(303);
    });
  });

  describe("sessions recorded on the server", () => {
    it("keeps only a random token in the cookie; the row holds the rest under the token's hash", async () => {
      const { cookie } = await signIn();
      const value = decodeURIComponent(cookie.slice("staff_session=".length)).split(".")[0];
      const content = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as Record<string, unknown>;
      expect(Object.keys(content)).toEqual(["sid"]);
      expect(content.sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const rows = await database.db.select().from(staffSessions);
      expect(rows.map((row) => row.id)).toContain(createHash("sha256").update(String(content.sid)).digest("hex"));
      expect(JSON.stringify(rows)).not.toContain(String(content.sid));
    });

    it("refuses a copy of the cookie after sign-out", async () => {
      const browser = await signIn();
      const copy = browser.cookie;
      expect((await call(logoutAction as RouteFn, post("/logout", { csrf: browser.csrf }, browser.cookie))).status).toBe(303);
      expect((await call(dashboardLoader as RouteFn, get("/dashboard", copy))).location).toMatch(/^\/login\?/);
    });

    it("ends every session of the account on a password change and on staff:revoke, and only that account's", async () => {
      const other = { email: "other-staff@example.com", password: "Second-Account-Pass-1", role: "staff" } as const;
      await createStaffAccount(database.db, other).catch(() => undefined);
      const first = await signIn();
      const second = await signIn();
      const someoneElse = await signIn(other.email, other.password);
      const { endedSessions } = await revokeStaffSessionsByEmail(database.db, EMAIL.toUpperCase());
      expect(endedSessions).toBeGreaterThanOrEqual(2);
      for (const browser of [first, second]) {
        expect((await call(dashboardLoader as RouteFn, get("/dashboard", browser.cookie))).location).toMatch(/^\/login\?/);
      }
      expect((await call(dashboardLoader as RouteFn, get("/dashboard", someoneElse.cookie))).status).toBe(200);

      const before = await signIn(other.email, other.password);
      await changeStaffPassword(database.db, { email: other.email, password: "Second-Account-Pass-2" });
      expect((await call(dashboardLoader as RouteFn, get("/dashboard", before.cookie))).location).toMatch(/^\/login\?/);
      expect((await attemptSignIn(other.email, other.password)).status).toBe(401);
      expect((await attemptSignIn(other.email, "Second-Account-Pass-2")).status).toBe(303);
      await expect(revokeStaffSessionsByEmail(database.db, "nobody@example.com")).rejects.toThrow(
        "No staff account for nobody@example.com.",
      );
    });
  });

  describe("dashboard", () => {
    it("counts the tiles in one query: Cancelled only in the total, test-page orders apart as well", async () => {
      await database.db
        .insert(orders)
        .values([
          testOrder({ status: "Approved" }),
          testOrder({ status: "Approved" }),
          testOrder({ status: "Packed" }),
          testOrder({ status: "Shipped" }),
          testOrder({ status: "Shipped" }),
          testOrder({ status: "Shipped", paymentProvider: "stripe" }),
          testOrder({ status: "Cancelled" }),
          testOrder({ status: "Cancelled" }),
        ]);
      expect(await dashboardTiles(database.db)).toEqual({ total: 8, approved: 2, packed: 1, shipped: 3, test: 7 });
      const { cookie } = await signIn();
      const page = await call(dashboardLoader as RouteFn, get("/dashboard", cookie));
      expect(page.data!.tiles).toEqual({ total: 8, approved: 2, packed: 1, shipped: 3, test: 7 });
    });

    it("lists orders newest first, leaving out those without a customer name, 50 to a page", async () => {
      const base = Date.parse("2026-10-01T00:00:00Z");
      const rows = Array.from({ length: PAGE_SIZE + 5 }, (_, i) => testOrder({ createdAt: new Date(base + i * 60_000) }));
      await database.db.insert(orders).values(rows);
      await database.db
        .insert(orders)
        .values([
          testOrder({ name: "", createdAt: new Date(base + 10 * 86_400_000) }),
          testOrder({ name: "   ", createdAt: new Date(base + 10 * 86_400_000) }),
        ]);
      const first = await listOrders(database.db);
      expect(first.rows).toHaveLength(PAGE_SIZE);
      expect(first.hasNext).toBe(true);
      expect(first.rows[0].orderId).toBe(rows.at(-1)!.orderId);
      const times = first.rows.map((row) => row.createdAt.getTime());
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const second = await listOrders(database.db, { page: 2 });
      expect(second.rows.map((row) => row.orderId)).toEqual(
        rows
          .slice(0, 5)
          .reverse()
          .map((row) => row.orderId),
      );
      expect(second.hasNext).toBe(false);
      expect([...first.rows, ...second.rows].every((row) => row.name.trim() !== "")).toBe(true);
    });

    it("searches by order id prefix, part of the name or email, case-insensitively", async () => {
      await database.db
        .insert(orders)
        .values([
          testOrder({ orderId: "K7Q2M9XW4P", name: "Grace Hopper", email: "grace@navy.example" }),
          testOrder({ orderId: "K7Q3AAAAAA", name: "Ada Lovelace", email: "ada@engine.example" }),
          testOrder({ orderId: "ZZZZZZZZZZ", name: "Alan Turing", email: "alan_100%@bletchley.example" }),
        ]);
      const ids = async (query: string) => (await listOrders(database.db, { query })).rows.map((row) => row.orderId).sort();
      expect(await ids("k7q")).toEqual(["K7Q2M9XW4P", "K7Q3AAAAAA"]);
      expect(await ids("K7Q2")).toEqual(["K7Q2M9XW4P"]);
      expect(await ids("hopper")).toEqual(["K7Q2M9XW4P"]);
      expect(await ids("ENGINE.example")).toEqual(["K7Q3AAAAAA"]);
      expect(await ids("100%")).toEqual(["ZZZZZZZZZZ"]);
      expect(await ids("%")).toEqual(["ZZZZZZZZZZ"]);
      expect(await ids("nobody")).toEqual([]);
      const { cookie } = await signIn();
      const page = await call(dashboardLoader as RouteFn, get("/dashboard?q=Lovelace", cookie));
      expect((page.data!.rows as Array<{ orderId: string }>).map((row) => row.orderId)).toEqual(["K7Q3AAAAAA"]);
    });

    it("updates a status with the token, records the audit row and shows the result", async () => {
      const [order] = await database.db
        .insert(orders)
        .values(testOrder({ name: "Grace Hopper" }))
        .returning();
      const browser = await signIn();
      const outcome = await call(
        dashboardAction as RouteFn,
        post(
          `/dashboard?q=grace&order=${order.orderId}`,
          { intent: "status", orderId: order.orderId, status: "Packed", csrf: browser.csrf },
          browser.cookie,
        ),
      );
      expect(outcome.status).toBe(303);
      expect(outcome.location).toBe(`/dashboard?q=grace&order=${order.orderId}`);
      expect(await statusOf(order.orderId)).toBe("Packed");
      const audit = await auditRows();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ orderId: order.orderId, staffEmail: EMAIL, fromStatus: "Approved", toStatus: "Packed" });
      expect(audit[0].changedAt).toBeInstanceOf(Date);

      const cookie = cookieFrom(outcome.headers.get("Set-Cookie"));
      const page = await call(dashboardLoader as RouteFn, get(outcome.location!, cookie));
      expect(page.data).toMatchObject({
        flash: { kind: "success", message: "Status updated successfully." },
        tiles: { total: 1, approved: 0, packed: 1, shipped: 0 },
        selected: {
          orderId: order.orderId,
          status: "Packed",
          history: [{ staffEmail: EMAIL, fromStatus: "Approved", toStatus: "Packed" }],
        },
      });
      expect(page.data!.rows).toEqual([expect.objectContaining({ orderId: order.orderId, status: "Packed" })]);
      // The flash is shown once.
      const again = await call(dashboardLoader as RouteFn, get(outcome.location!, cookieFrom(page.headers.get("Set-Cookie"))));
      expect(again.data!.flash).toBeNull();

      // Any order of statuses is allowed, and each change is recorded.
      for (const status of ["Approved", "Cancelled", "Shipped"]) {
        const result = await updateOrderStatus(withJobs(database.db), {
          orderId: order.orderId,
          status,
          staff: { email: "other@example.com" },
          shipment: { carrier: "USPS", trackingNumber: "9400100000000000000000" },
        });
        expect(result).toMatchObject({ ok: true, changed: true });
      }
      const detail = await orderDetail(database.db, order.orderId);
      expect(detail!.history.map((change) => `${change.fromStatus}>${change.toStatus}`)).toEqual([
        "Cancelled>Shipped",
        "Approved>Cancelled",
        "Packed>Approved",
        "Approved>Packed",
      ]);
      // Setting the same status again is no change and records nothing.
      expect(
        await updateOrderStatus(withJobs(database.db), {
          orderId: order.orderId,
          status: "Shipped",
          staff: { email: EMAIL },
          shipment: { carrier: "USPS", trackingNumber: "9400100000000000000000" },
        }),
      ).toMatchObject({ changed: false });
      expect(await auditRows()).toHaveLength(4);
    });

    it("answers the spec's messages for a bad status, an unknown order and an unexpected failure", async () => {
      const [order] = await database.db.insert(orders).values(testOrder()).returning();
      const browser = await signIn();
      const send = (values: Record<string, string>) =>
        call(dashboardAction as RouteFn, post("/dashboard", { intent: "status", csrf: browser.csrf, ...values }, browser.cookie));

      const invalid = await send({ orderId: order.orderId, status: "Lost" });
      expect(invalid.status).toBe(400);
      expect(invalid.data).toEqual({ flash: { kind: "error", message: "Failed to update status." } });
      const unknown = await send({ orderId: "NOPE234567", status: "Packed" });
      expect(unknown.status).toBe(404);
      expect(unknown.data).toEqual({ flash: { kind: "error", message: "Failed to update status." } });
      // An intent the dashboard does not know is a readable 400 (forms.server.ts), a PUT a 405.
      const launch = await call(dashboardAction as RouteFn, post("/dashboard", { intent: "launch", csrf: browser.csrf }, browser.cookie));
      expect(launch.status).toBe(400);
      const put = new Request(`${TEST_ORIGIN}/dashboard`, {
        method: "PUT",
        body: formData({ intent: "status" }),
        headers: { Cookie: browser.cookie },
      });
      expect((await call(dashboardAction as RouteFn, put)).headers.get("Allow")).toBe("GET, HEAD, POST");

      const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
      vi.spyOn(database.db, "transaction").mockRejectedValueOnce(new Error("connection lost"));
      const failed = await send({ orderId: order.orderId, status: "Packed" });
      expect(failed.status).toBe(500);
      expect(failed.data).toEqual({ flash: { kind: "error", message: "An unexpected error occurred." } });
      expect(error).toHaveBeenCalled();

      expect(await statusOf(order.orderId)).toBe("Approved");
      expect(await auditRows()).toHaveLength(0);
    });

    it("opens the side panel from the URL with customer, address, items, totals, payment and history", async () => {
      const [order] = await database.db
        .insert(orders)
        .values(testOrder({ name: "Grace Hopper", email: "grace@example.com" }))
        .returning();
      const { cookie } = await signIn();
      const page = await call(dashboardLoader as RouteFn, get(`/dashboard?order=${order.orderId.toLowerCase()}`, cookie));
      expect(page.data!.selected).toMatchObject({
        orderId: order.orderId,
        customer: { name: "Grace Hopper", email: "grace@example.com", address: "1 Main St", city: "Austin" },
        items: [{ title: "Blaze grill", quantity: 2, unitPriceCents: 4900 }],
        totalCents: 9800,
        paymentMethod: "stripe",
        history: [],
      });
      const missing = await call(dashboardLoader as RouteFn, get("/dashboard?order=NOPE234567", cookie));
      expect(missing.data).toMatchObject({ selected: null, selectedMissing: true });
    });
  });

  describe("passwords", () => {
    it("are stored only as argon2id hashes and never appear in any table, the log or the console", async () => {
      const clear = "Never-Log-This-Password-77";
      const spies = [
        ...(["log", "info", "warn", "error", "debug"] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => {})),
        ...(["info", "warn", "error"] as const).map((level) => vi.spyOn(logger, level).mockImplementation((() => {}) as never)),
      ];
      await createStaffAccount(database.db, { email: "Second@Example.com", password: clear, role: "owner" });
      await expect(createStaffAccount(database.db, { email: "second@example.com", password: clear, role: "owner" })).rejects.toBeInstanceOf(
        DuplicateStaffEmailError,
      );
      expect((await attemptSignIn("second@example.com", "not-the-password")).status).toBe(401);
      expect((await attemptSignIn("second@example.com", clear)).status).toBe(303);
      expect(await verifyStaffCredentials(database.db, "SECOND@example.com", clear)).toMatchObject({
        email: "second@example.com",
        role: "owner",
      });

      const accounts = await database.db.select().from(staffUsers);
      for (const account of accounts) expect(account.passwordHash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);

      for (const table of (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable))) {
        const dump = JSON.stringify(await database.db.select().from(table));
        expect(dump).not.toContain(clear);
        expect(dump).not.toContain(PASSWORD);
      }
      const printed = JSON.stringify(spies.flatMap((spy) => spy.mock.calls));
      expect(printed).not.toContain(clear);
      expect(printed).not.toContain(PASSWORD);
      await database.db.delete(staffUsers).where(sql`${staffUsers.email} = 'second@example.com'`);
    });
  });

  describe("demo account", () => {
    it("is created once on the embedded start only, with a random password handed back once", async () => {
      const saved = await database.db.select().from(staffUsers);
      await database.db.delete(staffUsers);
      try {
        // With DATABASE_URL set, nothing is created.
        const withUrl = parseConfig({ DATABASE_URL: "postgres://u@127.0.0.1:5432/x" });
        expect(await ensureDemoStaffAccount(database.db, withUrl)).toBeNull();
        expect(await database.db.select().from(staffUsers)).toHaveLength(0);

        const embedded = parseConfig({});
        const created = await ensureDemoStaffAccount(database.db, embedded);
        expect(await ensureDemoStaffAccount(database.db, embedded)).toBeNull();
        expect(created).toMatchObject({ email: DEMO_STAFF_EMAIL, password: expect.stringMatching(/^\S{16,}$/) });
        // The only account, so an owner: someone must be able to refund and change prices.
        expect(await verifyStaffCredentials(database.db, DEMO_STAFF_EMAIL, created!.password!)).toMatchObject({ role: "owner" });

        // Another data directory gets another password.
        await database.db.delete(staffUsers);
        expect((await ensureDemoStaffAccount(database.db, embedded))?.password).not.toBe(created!.password);

        // A password from STAFF_DEMO_PASSWORD is used but not handed back.
        await database.db.delete(staffUsers);
        const configured = await ensureDemoStaffAccount(database.db, parseConfig({ STAFF_DEMO_PASSWORD: "configured-demo-pass" }));
        expect(configured).toEqual({ email: DEMO_STAFF_EMAIL, password: null });
        expect(await verifyStaffCredentials(database.db, DEMO_STAFF_EMAIL, "configured-demo-pass")).not.toBeNull();
      } finally {
        await database.db.delete(staffUsers);
        await database.db.insert(staffUsers).values(saved);
      }
    });
  });
});
