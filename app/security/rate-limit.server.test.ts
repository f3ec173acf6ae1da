import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitCounters } from "~/db/schema";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../../tests/support/test-database";
import { createRateLimiter, effectiveLimit, RATE_LIMITS, type RateLimiter, type RateLimitRule } from "./rate-limit.server";

const rule: RateLimitRule = { name: "test", limit: 3, windowMs: 60_000, perAddress: true };

describe("effectiveLimit", () => {
  it("scales per-address limits only, never below 1", () => {
    expect(effectiveLimit(rule, 1)).toBe(3);
    expect(effectiveLimit(rule, 100)).toBe(300);
    expect(effectiveLimit(rule, 0.01)).toBe(1);
    expect(effectiveLimit({ ...rule, perAddress: false }, 100)).toBe(3);
  });
});

describe.each(testDatabaseKinds())("createRateLimiter on %s", (kind) => {
  let database: TestDatabase;
  /** The limiter's clock: each test moves it, none sleeps. */
  let now = Date.parse("2026-11-23T10:00:10Z");
  let limiter: RateLimiter;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    limiter = createRateLimiter({ db: database.db, scale: 1, now: () => now });
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("allows the chat's 20 messages from the first one on, refuses the 21st until 60 s after the first, then starts a new window", async () => {
    const chat = RATE_LIMITS.chat;
    const first = now;
    for (let i = 0; i < 20; i += 1) {
      expect(await limiter.hit(chat, "conversation:a")).toEqual({ allowed: true, retryAfterMs: 0 });
      now += 1_000;
    }
    // 20 s after the first message: the window has 40 s left, whatever the wall clock's minute.
    expect(await limiter.hit(chat, "conversation:a")).toEqual({ allowed: false, retryAfterMs: 40_000 });
    now = first + 59_999;
    expect(await limiter.hit(chat, "conversation:a")).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(await limiter.hits(chat, "conversation:a")).toBe(20);

    now = first + 60_000;
    expect(await limiter.hits(chat, "conversation:a")).toBe(0);
    expect(await limiter.hit(chat, "conversation:a")).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await limiter.hits(chat, "conversation:a")).toBe(1);
    // The new window started at that hit: 19 more, then refused for the 60 s from it.
    for (let i = 0; i < 19; i += 1) expect((await limiter.hit(chat, "conversation:a")).allowed).toBe(true);
    now += 30_000;
    expect(await limiter.hit(chat, "conversation:a")).toEqual({ allowed: false, retryAfterMs: 30_000 });
  });

  it("refuses hits without counting them, and counts subjects and rules apart", async () => {
    now += 10 * 60_000;
    for (let i = 0; i < 3; i += 1) expect((await limiter.hit(rule, "a")).allowed).toBe(true);
    expect(await limiter.check(rule, "a")).toEqual({ allowed: false, retryAfterMs: 60_000 });
    for (let i = 0; i < 5; i += 1) expect((await limiter.hit(rule, "a")).allowed).toBe(false);
    expect(await limiter.hits(rule, "a")).toBe(3);
    expect(await limiter.check(rule, "b")).toEqual({ allowed: true, retryAfterMs: 0 });
    expect((await limiter.hit(rule, "b")).allowed).toBe(true);
    expect((await limiter.hit({ ...rule, name: "other" }, "a")).allowed).toBe(true);
    // Refused hits did not move the window: it still ends 60 s after the first hit.
    now += 60_000;
    expect((await limiter.hit(rule, "a")).allowed).toBe(true);
  });

  it("multiplies per-address limits by its scale", async () => {
    now += 10 * 60_000;
    const scaled = createRateLimiter({ db: database.db, scale: 2, now: () => now });
    const results = [];
    for (let i = 0; i < 7; i += 1) results.push((await scaled.hit({ ...rule, name: "scaled" }, "203.0.113.5")).allowed);
    expect(results).toEqual([true, true, true, true, true, true, false]);
  });

  it("lets exactly the limit through a burst of parallel hits (no read-then-write race), also when the burst starts a new window", async () => {
    now += 10 * 60_000;
    const burst = { ...rule, name: "burst", limit: 7 };
    const first = await Promise.all(Array.from({ length: 40 }, () => limiter.hit(burst, "parallel")));
    expect(first.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(await limiter.hits(burst, "parallel")).toBe(7);

    // The window has ended: a second burst races to start the next one, and still only 7 get through.
    now += burst.windowMs;
    const second = await Promise.all(Array.from({ length: 40 }, () => limiter.hit(burst, "parallel")));
    expect(second.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(await limiter.hits(burst, "parallel")).toBe(7);
  });

  it("prunes counters whose window has ended", async () => {
    now += 10 * 60_000;
    await limiter.hit(rule, "old");
    const rowsBefore = await database.db.select().from(rateLimitCounters);
    expect(rowsBefore.length).toBeGreaterThan(0);
    // Every window so far ended 60 s after its first hit at the latest.
    now += 60_001;
    expect(await limiter.prune()).toBe(rowsBefore.length);
    expect(await database.db.select().from(rateLimitCounters)).toEqual([]);
  });

  it("counts a per-address rule's IPv6 subjects by their /64, other rules' subjects as given", async () => {
    now += 10 * 60_000;
    const sameNetwork = (i: number) => `2001:db8:7:7:${i}::1`;
    for (let i = 1; i <= 3; i += 1) expect((await limiter.hit(rule, sameNetwork(i))).allowed).toBe(true);
    expect((await limiter.hit(rule, sameNetwork(4))).allowed).toBe(false);
    expect(await limiter.hits(rule, "2001:db8:7:7::9")).toBe(3);
    expect((await limiter.hit(rule, "2001:db8:7:8::1")).allowed).toBe(true);

    const perConversation = { ...rule, name: "per-conversation", perAddress: false };
    for (let i = 1; i <= 4; i += 1) expect((await limiter.hit(perConversation, sameNetwork(i))).allowed).toBe(true);
  });

  it("keeps long subjects to a bounded key", async () => {
    now += 10 * 60_000;
    await limiter.prune();
    expect((await limiter.hit(rule, "x".repeat(10_000))).allowed).toBe(true);
    const [row] = await database.db.select().from(rateLimitCounters);
    expect(row.key.length).toBeLessThanOrEqual(rule.name.length + 1 + 200);
  });
});
