import type { AppLoadContext } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { createStaffAccount } from "~/staff/accounts.server";
import { LOCKOUT_LIMITS, lockoutClock, MAX_DELAY_MS } from "~/staff/lockout.server";
import type { StoreRuntime } from "~/runtime.server";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Wrong passwords for one staff account from many addresses
 * (or from one client claiming a new X-Forwarded-For each time) must never
 * lock the account's owner out. Guesses against an account only slow it down
 * (a capped delay); hard refusals are per client address, and the address is
 * the one the server resolved (load context), never a header the client wrote.
 */
const EMAIL = "staff@example.com";
const PASSWORD = "Owner-Knows-This-Pass-1";

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

async function signIn(email: string, password: string, clientAddress: string, headers: Record<string, string> = {}): Promise<Answer> {
  const page = await answer(loginLoader as Route, new Request(`${TEST_ORIGIN}/login`, { headers }), clientAddress);
  const cookie = cookieFrom(page.headers.get("Set-Cookie"));
  const csrf = String((page.data as { csrf?: string }).csrf);
  const request = new Request(`${TEST_ORIGIN}/login`, {
    method: "POST",
    body: formData({ email, password, csrf }),
    headers: { ...headers, Cookie: cookie },
  });
  return answer(loginAction as Route, request, clientAddress);
}

describe.each(testDatabaseKinds())("sign-in lock-out cannot lock an owner out (%s)", (kind) => {
  let database: TestDatabase;
  let now = Date.parse("2026-11-23T09:00:00Z");
  const delays: number[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await createStaffAccount(database.db, { email: EMAIL, password: PASSWORD });
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delays.length = 0;
  });

  const useLockoutClock = () => {
    vi.spyOn(lockoutClock, "now").mockImplementation(() => new Date(now));
    vi.spyOn(lockoutClock, "sleep").mockImplementation(async (ms) => {
      delays.push(ms);
    });
  };

  // 200 argon2 checks take about a minute: run once, on the real server when there is one.
  it.runIf(kind === testDatabaseKinds().at(-1))(
    "200 wrong guesses from 200 addresses, then the owner signs in from their own address",
    { timeout: 240_000 },
    async () => {
      useLockoutClock();
      for (let i = 0; i < 200; i += 1) {
        const address = `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
        const guess = await signIn(EMAIL, `wrong-guess-number-${i}`, address);
        expect(guess.status).toBe(401);
        now += 1_000;
      }
      // Every pause was capped at a few seconds; none was a refusal.
      expect(Math.max(...delays)).toBe(MAX_DELAY_MS);
      expect(MAX_DELAY_MS).toBeLessThanOrEqual(5_000);

      // The owner, at once, from their own address: slowed by the cap, not refused.
      delays.length = 0;
      const owner = await signIn(EMAIL, PASSWORD, "198.51.100.10");
      expect(owner.status).toBe(303);
      expect(owner.headers.get("Location")).toBe("/dashboard");
      expect(delays).toEqual([MAX_DELAY_MS]);
    },
  );

  it("a client claiming a new X-Forwarded-For each time is still one address, and only that address is refused", async () => {
    now += 60 * 60_000;
    useLockoutClock();
    const attacker = "192.0.2.200";
    for (let i = 0; i < LOCKOUT_LIMITS.address.refuseAfter; i += 1) {
      const guess = await signIn(EMAIL, `forwarded-guess-${i}`, attacker, { "X-Forwarded-For": `198.18.0.${i + 1}` });
      expect(guess.status).toBe(401);
    }
    const refused = await signIn(EMAIL, PASSWORD, attacker, { "X-Forwarded-For": "198.18.1.1" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.data?.error).toMatch(/^Too many failed sign-in attempts\. Please wait/);

    // The owner, from anywhere else, signs in right away.
    expect((await signIn(EMAIL, PASSWORD, "198.51.100.10")).status).toBe(303);
    // The attacker's own refusal lifts within the window (at most 15 minutes).
    now += 15 * 60_000 + 1_000;
    expect((await signIn(EMAIL, PASSWORD, attacker)).status).toBe(303);
  });
});
