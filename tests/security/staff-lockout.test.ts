import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { createStaffAccount } from "~/staff/accounts.server";
import { LOCKOUT_LIMITS, LOCKOUT_WINDOW_MS } from "~/staff/lockout.server";
import { testClock } from "../support/test-clock";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Guessing one staff account's password from many addresses (or from one
 * client claiming a new X-Forwarded-For each time) gets no more guesses a
 * minute than guessing from one address, and never locks the account's owner
 * out on a browser they have signed in with before (a known device). The
 * address is the one the server resolved (load context), never a header the
 * client wrote.
 */
const EMAIL = "staff@example.com";
const PASSWORD = "Owner-Knows-This-Pass-1";
const OWNER_ADDRESS = "198.51.100.10";
const COLLEAGUE_EMAIL = "colleague@example.com";
const COLLEAGUE_ADDRESS = "198.51.100.20";

type Answer = { status: number; headers: Headers; data: { error?: string } | null };
type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<unknown>;

async function answer(fn: Route, request: Request, clientAddress: string): Promise<Answer> {
  let result: unknown;
  try {
    result = await fn({ request, params: {}, context: testContext(runtime, { clientAddress }) });
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  const { data, init } = result as { data: { error?: string }; init: ResponseInit | null };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
}

interface Browser {
  headers?: Record<string, string>;
  /** The staff_device cookie of a browser that signed in before. */
  deviceCookie?: string;
}

async function signIn(email: string, password: string, clientAddress: string, browser: Browser = {}): Promise<Answer> {
  const headers = browser.headers ?? {};
  const page = await answer(loginLoader as Route, new Request(`${TEST_ORIGIN}/login`, { headers }), clientAddress);
  const cookie = [cookieFrom(page.headers.get("Set-Cookie")), browser.deviceCookie].filter(Boolean).join("; ");
  const csrf = String((page.data as { csrf?: string }).csrf);
  const request = new Request(`${TEST_ORIGIN}/login`, {
    method: "POST",
    body: formData({ email, password, csrf }),
    headers: { ...headers, Cookie: cookie },
  });
  return answer(loginAction as Route, request, clientAddress);
}

/** The staff_device cookie a successful sign-in set. */
function deviceCookieOf(signedIn: Answer): string {
  const setCookie = signedIn.headers.getSetCookie().find((value) => value.startsWith("staff_device="));
  expect(setCookie).toBeDefined();
  return cookieFrom(setCookie ?? null);
}

describe.each(testDatabaseKinds())("sign-in guesses against one account (%s)", (kind) => {
  let database: TestDatabase;
  let now = Date.parse("2026-11-23T09:00:00Z");
  const clock = testClock();
  const delays = clock.slept;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, {}, { clock });
    await createStaffAccount(database.db, { email: EMAIL, password: PASSWORD, role: "staff" });
    await createStaffAccount(database.db, { email: COLLEAGUE_EMAIL, password: PASSWORD, role: "staff" });
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delays.length = 0;
    clock.follow(() => Date.now());
  });

  const useLockoutClock = () => {
    clock.follow(() => new Date(now));
  };

  /** Guesses against EMAIL within one minute, from the addresses in turn; how many had their password checked. */
  async function checkedGuessesInAMinute(addresses: string[], guesses: number): Promise<number> {
    let checked = 0;
    for (let i = 0; i < guesses; i += 1) {
      const guess = await signIn(EMAIL, `wrong-guess-number-${i}`, addresses[i % addresses.length]);
      expect([401, 429]).toContain(guess.status);
      if (guess.status === 401) checked += 1;
      now += Math.floor(60_000 / guesses);
    }
    return checked;
  }

  it(
    "40 addresses get no more guesses a minute than one, and the owner still signs in on a known device",
    { timeout: 120_000 },
    async () => {
      useLockoutClock();
      const owner = await signIn(EMAIL, PASSWORD, OWNER_ADDRESS);
      expect(owner.status).toBe(303);
      const deviceCookie = deviceCookieOf(owner);
      const colleagueDevice = deviceCookieOf(await signIn(COLLEAGUE_EMAIL, PASSWORD, COLLEAGUE_ADDRESS));

      const fromOneAddress = await checkedGuessesInAMinute(["203.0.113.1"], 40);
      expect(fromOneAddress).toBe(LOCKOUT_LIMITS.address.refuseAfter);

      now += LOCKOUT_WINDOW_MS;
      const attackers = Array.from({ length: 40 }, (_, i) => `203.0.${Math.floor(i / 250) + 1}.${(i % 250) + 1}`);
      const fromFortyAddresses = await checkedGuessesInAMinute(attackers, 160);
      expect(fromFortyAddresses).toBeLessThanOrEqual(fromOneAddress);

      // The owner, on the browser they signed in with before: neither refused nor slowed by the guesses.
      delays.length = 0;
      const again = await signIn(EMAIL, PASSWORD, OWNER_ADDRESS, { deviceCookie });
      expect(again.status).toBe(303);
      expect(again.headers.get("Location")).toBe("/dashboard");
      expect(delays).toEqual([]);
      // A device cookie names one account: a colleague's browser is a stranger to this one.
      expect((await signIn(EMAIL, PASSWORD, COLLEAGUE_ADDRESS, { deviceCookie: colleagueDevice })).status).toBe(429);

      // What the design gives up (ADR 022): a browser that never signed in to the account waits the guesses out.
      const newBrowser = await signIn(EMAIL, PASSWORD, "198.51.100.11");
      expect(newBrowser.status).toBe(429);
      expect(newBrowser.data?.error).toMatch(/^Too many failed sign-in attempts\. Please wait/);
      now += LOCKOUT_WINDOW_MS + 1_000;
      expect((await signIn(EMAIL, PASSWORD, "198.51.100.11")).status).toBe(303);
    },
  );

  it("a client claiming a new X-Forwarded-For each time is still one address, and only that address is refused", async () => {
    now += 60 * 60_000;
    useLockoutClock();
    const deviceCookie = deviceCookieOf(await signIn(EMAIL, PASSWORD, OWNER_ADDRESS));
    const attacker = "192.0.2.200";
    for (let i = 0; i < LOCKOUT_LIMITS.address.refuseAfter; i += 1) {
      const guess = await signIn(EMAIL, `forwarded-guess-${i}`, attacker, { headers: { "X-Forwarded-For": `198.18.0.${i + 1}` } });
      expect(guess.status).toBe(401);
    }
    const refused = await signIn(EMAIL, PASSWORD, attacker, { headers: { "X-Forwarded-For": "198.18.1.1" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.data?.error).toMatch(/^Too many failed sign-in attempts\. Please wait/);

    // The owner, on their own browser, signs in right away.
    expect((await signIn(EMAIL, PASSWORD, OWNER_ADDRESS, { deviceCookie })).status).toBe(303);
    // The attacker's own refusal lifts within the window (at most 15 minutes).
    now += LOCKOUT_WINDOW_MS + 1_000;
    expect((await signIn(EMAIL, PASSWORD, attacker)).status).toBe(303);
  });
});
