import { describe, expect, it } from "vitest";
import { SharedCache } from "./shared-cache";

const PUBLIC = "public, max-age=60, stale-while-revalidate=600";

function page(nonce: string, cacheControl = PUBLIC, extra: Record<string, string> = {}) {
  return {
    headers: new Headers({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": cacheControl,
      Vary: "Cookie",
      "Content-Security-Policy": `script-src 'nonce-${nonce}'`,
      ...extra,
    }),
    body: Buffer.from(`<!doctype html><script nonce="${nonce}">a</script><p>page</p><script nonce="${nonce}">b</script>`),
  };
}

function cacheAt(clock: { now: number }) {
  return new SharedCache(1024 * 1024, () => clock.now);
}

describe("the shared cache of public responses", () => {
  it("keeps a page for its s-maxage, not the browser's max-age of 0 (the catalogue's header)", () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const key = cache.keyOf("GET", "/product/a", {})!;
    const kept = page("n", "public, max-age=0, s-maxage=60");
    expect(cache.storable(200, kept.headers)).toBe(true);
    cache.store(key, kept.headers, kept.body, "n");
    clock.now = 59_000;
    expect(cache.answer(key, { nonce: "m", method: "GET" })).toBeDefined();
    clock.now = 60_000;
    expect(cache.answer(key, { nonce: "m", method: "GET" })).toBeUndefined();
  });

  it("does not keep a page whose request began before the last clear (made from what the clear was for)", () => {
    const cache = cacheAt({ now: 0 });
    const key = cache.keyOf("GET", "/product/a", {})!;
    const begun = cache.generation;
    cache.clear();
    const late = page("n");
    cache.store(key, late.headers, late.body, "n", begun);
    expect(cache.answer(key, { nonce: "m", method: "GET" })).toBeUndefined();
    cache.store(key, late.headers, late.body, "n", cache.generation);
    expect(cache.answer(key, { nonce: "m", method: "GET" })).toBeDefined();
  });

  it("answers the next cookie-less request with the same page under that request's own nonce", () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const key = cache.keyOf("GET", "/products/all/all", {})!;
    const first = page("first-nonce");
    expect(cache.storable(200, first.headers)).toBe(true);
    cache.store(key, first.headers, first.body, "first-nonce");

    clock.now = 5_000;
    const answer = cache.answer(key, { nonce: "second-nonce", method: "GET" })!;
    expect(answer.status).toBe(200);
    expect(Buffer.concat(answer.body).toString()).toBe(page("second-nonce").body.toString());
    const headers = new Map(answer.headers);
    expect(headers.get("content-security-policy")).toBe("script-src 'nonce-second-nonce'");
    expect(headers.get("age")).toBe("5");
    expect(headers.get("etag")).toMatch(/^"/);
  });

  it("keeps a page only for its max-age", () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    const stored = page("n", "public, max-age=2");
    cache.store("/", stored.headers, stored.body, "n");
    clock.now = 1_999;
    expect(cache.answer("/", { nonce: "m", method: "GET" })).toBeDefined();
    clock.now = 2_000;
    expect(cache.answer("/", { nonce: "m", method: "GET" })).toBeUndefined();
  });

  it("never serves or keeps what carries personal data or is not public", () => {
    const cache = cacheAt({ now: 0 });
    expect(cache.keyOf("GET", "/", { cookie: "cart=abc" })).toBeNull();
    expect(cache.keyOf("GET", "/", { authorization: "Basic x" })).toBeNull();
    expect(cache.keyOf("POST", "/", {})).toBeNull();
    expect(cache.keyOf("GET", "/", { range: "bytes=0-10" })).toBeNull();
    expect(cache.keyOf("HEAD", "/", {})).toBe("/");
    expect(cache.storable(200, page("n", "private, no-cache").headers)).toBe(false);
    expect(cache.storable(200, page("n", "no-store").headers)).toBe(false);
    expect(cache.storable(200, page("n", "public").headers)).toBe(false);
    expect(cache.storable(200, page("n", PUBLIC, { "Set-Cookie": "a=b" }).headers)).toBe(false);
    expect(cache.storable(200, page("n", PUBLIC, { Vary: "Cookie, Accept-Language" }).headers)).toBe(false);
    expect(cache.storable(404, page("n").headers)).toBe(false);
  });

  it("answers a matching If-None-Match with 304 and no script policy, and HEAD without a body", () => {
    const cache = cacheAt({ now: 0 });
    const stored = page("n", PUBLIC, { ETag: '"abc"' });
    cache.store("/", stored.headers, stored.body, "n");
    const notModified = cache.answer("/", { nonce: "m", method: "GET", ifNoneMatch: 'W/"abc"' })!;
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(new Map(notModified.headers).has("content-security-policy")).toBe(false);
    const head = cache.answer("/", { nonce: "m", method: "HEAD" })!;
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("keeps the pages asked for again while a flood of one-off URLs comes and goes", () => {
    const cache = new SharedCache(10 * 1024, () => 0);
    const headers = new Headers({ "Cache-Control": PUBLIC });
    for (const key of ["/home", "/grills"]) {
      cache.store(key, headers, Buffer.alloc(1000, key), undefined);
      cache.answer(key, { nonce: "x", method: "GET" });
    }
    for (let junk = 0; junk < 1_000; junk++) cache.store(`/grills?junk=${junk}`, headers, Buffer.alloc(1000), undefined);
    expect(cache.answer("/home", { nonce: "x", method: "GET" })).toBeDefined();
    expect(cache.answer("/grills", { nonce: "x", method: "GET" })).toBeDefined();
    expect(cache.answer("/grills?junk=999", { nonce: "x", method: "GET" })).toBeDefined();
    expect(cache.answer("/grills?junk=0", { nonce: "x", method: "GET" })).toBeUndefined();
  });

  it("stays within its byte bound, least recently used out first", () => {
    const cache = new SharedCache(8 * 1024, () => 0);
    const headers = new Headers({ "Cache-Control": PUBLIC });
    for (const key of ["/a", "/b", "/c"]) cache.store(key, headers, Buffer.alloc(1000, key), undefined);
    cache.answer("/a", { nonce: "x", method: "GET" });
    for (const key of ["/d", "/e", "/f", "/g", "/h", "/i"]) cache.store(key, headers, Buffer.alloc(1000, key), undefined);
    expect(cache.answer("/a", { nonce: "x", method: "GET" })).toBeDefined();
    expect(cache.answer("/b", { nonce: "x", method: "GET" })).toBeUndefined();
  });
});
