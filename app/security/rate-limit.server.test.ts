import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rateLimitCounters } from "~/db/schema";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../../tests/support/test-database";
import { effectiveLimit, hitRateLimit, pruneRateLimits, rateLimitClock, rateLimitHits, type RateLimitRule } from "./rate-limit.server";

const rule: RateLimitRule = { name: "test", limit: 3, windowMs: 60_000, perAddress: true };

describe("effectiveLimit", () => {
  it("scales per-address limits only, never below 1", () => {
    expect(effectiveLimit(rule, 1)).toBe(3);
    expect(effectiveLimit(rule, 100)).toBe(300);
    expect(effectiveLimit(rule, 0.01)).toBe(1);
    expect(effectiveLimit({ ...rule, perAddress: false }, 100)).toBe(3);
  });
});

describe.each(testDatabaseKinds())("hitRateLimit on %s", (kind) => {
  let database: TestDatabase;
  let now = Date.parse("2026-11-23T10:00:10Z");

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const at = (time: number) => vi.spyOn(rateLimitClock, "now").mockImplementation(() => time);

  it("allows the limit in a window, then refuses until the window ends; refused hits are not counted", async () => {
    at(now);
    for (let i = 0; i < 3; i += 1) expect(await hitRateLimit(database.db, rule, "a")).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await hitRateLimit(database.db, rule, "a")).toEqual({ allowed: false, retryAfterMs: 50_000 });
    expect(await hitRateLimit(database.db, rule, "a")).toMatchObject({ allowed: false });
    expect(await rateLimitHits(database.db, rule, "a")).toBe(3);
    // Another subject, and the same subject under another rule, count apart.
    expect((await hitRateLimit(database.db, rule, "b")).allowed).toBe(true);
    expect((await hitRateLimit(database.db, { ...rule, name: "other" }, "a")).allowed).toBe(true);

    at(now + 50_000);
    expect((await hitRateLimit(database.db, rule, "a")).allowed).toBe(true);
  });

  it("lets exactly the limit through a burst of parallel hits (no read-then-write race)", async () => {
    now += 10 * 60_000;
    at(now);
    const burst = { ...rule, name: "burst", limit: 7 };
    const decisions = await Promise.all(Array.from({ length: 40 }, () => hitRateLimit(database.db, burst, "parallel")));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(await rateLimitHits(database.db, burst, "parallel")).toBe(7);
  });

  it("prunes counters whose window has ended", async () => {
    now += 10 * 60_000;
    at(now);
    await hitRateLimit(database.db, rule, "old");
    const rowsBefore = await database.db.select().from(rateLimitCounters);
    expect(rowsBefore.length).toBeGreaterThan(0);
    expect(await pruneRateLimits(database.db, now + 60_000)).toBe(rowsBefore.length);
    expect(await database.db.select().from(rateLimitCounters)).toEqual([]);
  });

  it("counts a per-address rule's IPv6 subjects by their /64, other rules' subjects as given", async () => {
    now += 10 * 60_000;
    at(now);
    const sameNetwork = (i: number) => `2001:db8:7:7:${i}::1`;
    for (let i = 1; i <= 3; i += 1) expect((await hitRateLimit(database.db, rule, sameNetwork(i))).allowed).toBe(true);
    expect((await hitRateLimit(database.db, rule, sameNetwork(4))).allowed).toBe(false);
    expect(await rateLimitHits(database.db, rule, "2001:db8:7:7::9")).toBe(3);
    expect((await hitRateLimit(database.db, rule, "2001:db8:7:8::1")).allowed).toBe(true);

    const perConversation = { ...rule, name: "per-conversation", perAddress: false };
    for (let i = 1; i <= 4; i += 1) expect((await hitRateLimit(database.db, perConversation, sameNetwork(i))).allowed).toBe(true);
  });

  it("keeps long subjects to a bounded key", async () => {
    at(now);
    expect((await hitRateLimit(database.db, rule, "x".repeat(10_000))).allowed).toBe(true);
    const [row] = await database.db.select().from(rateLimitCounters);
    expect(row.key.length).toBeLessThanOrEqual(rule.name.length + 1 + 200);
  });
});
