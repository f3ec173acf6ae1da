import { describe, expect, it } from "vitest";
import { createRateLimiter, visitorKey } from "./rate-limit.server";

describe("createRateLimiter", () => {
  it("engages after the limit within the window and lifts as old messages leave it", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect(limiter.hit("a").allowed).toBe(true);
    now += 10_000;
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("a").allowed).toBe(true);
    const blocked = limiter.hit("a");
    expect(blocked).toEqual({ allowed: false, retryAfterMs: 50_000 });
    // Another visitor is not affected.
    expect(limiter.hit("b").allowed).toBe(true);
    // A refused message does not count: once the first message is a minute old, one more is allowed.
    now += 50_000;
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("a").allowed).toBe(false);
    now += 60_000;
    expect(limiter.hit("a").allowed).toBe(true);
  });

  it("forgets the longest idle visitors beyond its size", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: () => now, maxVisitors: 2 });
    limiter.hit("a");
    limiter.hit("b");
    limiter.hit("c");
    // "a" was forgotten, so it may send again within the window.
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("c").allowed).toBe(false);
    now += 1_001;
    expect(limiter.hit("c").allowed).toBe(true);
  });
});

describe("visitorKey", () => {
  it("uses the conversation id, else the client address", () => {
    const request = new Request("http://store.test/chatbot", { headers: { "X-Forwarded-For": "203.0.113.9, 10.0.0.1" } });
    expect(visitorKey(request, "abc123")).toBe("conversation:abc123");
    expect(visitorKey(request, null)).toBe("address:203.0.113.9");
    expect(visitorKey(new Request("http://store.test/chatbot"), null)).toBe("address:unknown");
  });
});
