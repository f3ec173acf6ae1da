import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { createRateLimiter, RATE_LIMITS, type RateLimiter } from "~/security/rate-limit.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Rate limits hold across server processes. Two separate
 * connection pools on one PostgreSQL database stand for two store processes
 * behind a load balancer: their hits add up to one limit.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("a rate limit shared by two handles on one PostgreSQL database", () => {
  let first: TestDatabase;
  let second: DatabaseHandle;
  /** One limiter per process, as each store process makes its own at start-up. */
  let limiters: [RateLimiter, RateLimiter];

  beforeAll(async () => {
    first = await createTestDatabase("postgres");
    second = await openDatabase({ url: first.url! });
    limiters = [createRateLimiter({ db: first.db, scale: 1 }), createRateLimiter({ db: second.db, scale: 1 })];
  });
  afterAll(async () => {
    await second.close();
    await first.dispose();
  });

  it("counts hits from both handles against one limit", async () => {
    const rule = RATE_LIMITS.contact;
    const allowed: boolean[] = [];
    for (let i = 0; i < rule.limit + 4; i += 1) {
      allowed.push((await limiters[i % 2].hit(rule, "198.51.100.20")).allowed);
    }
    expect(allowed.filter(Boolean)).toHaveLength(rule.limit);
    expect(allowed.slice(rule.limit).every((value) => !value)).toBe(true);
    // Either process refuses the address now.
    expect((await limiters[0].hit(rule, "198.51.100.20")).allowed).toBe(false);
    expect((await limiters[1].hit(rule, "198.51.100.20")).allowed).toBe(false);
  });

  it("lets exactly the limit through a parallel burst split over both handles", async () => {
    const rule = RATE_LIMITS.orderLookup;
    const decisions = await Promise.all(Array.from({ length: rule.limit * 3 }, (_, i) => limiters[i % 2].hit(rule, "198.51.100.21")));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(rule.limit);
    expect(await limiters[1].hits(rule, "198.51.100.21")).toBe(rule.limit);
  });
});
