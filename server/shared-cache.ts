import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * The store as its own shared cache (ADR 013): a response the app declares
 * `public` (catalogue pages, their `.data`, typeahead answers) is the same for
 * every shopper without a cookie, which is what a CDN in front would keep for
 * its `max-age`. This process keeps it too, and answers the next cookie-less
 * request for the same URL without running Remix: no loaders, no rendering,
 * no data encoding.
 *
 * What is never kept: a request with a cookie or credentials, anything but
 * GET/HEAD, anything but a 200, a response that sets a cookie or varies on
 * more than Cookie and Accept-Encoding, or that is not `public` with a
 * max-age. Each answer from the cache gets the new request's CSP nonce (in the
 * page and in its policy), its own request id and an `Age`.
 *
 * Eviction is a segmented LRU: a new entry is on probation, and moves to the
 * protected part (at most PROTECTED_SHARE of the bytes) when it is asked for
 * again. A flood of one-off URLs (`?junk=1`, `?junk=2`...) only pushes out
 * other one-off entries, never the pages shoppers keep asking for.
 */

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const PROTECTED_SHARE = 0.8;
const VARY_ALLOWED = new Set(["cookie", "accept-encoding"]);
/** Headers that describe one response, not the stored one. */
const PER_RESPONSE = new Set(["date", "x-request-id", "age", "connection", "keep-alive", "transfer-encoding", "content-length"]);

interface Entry {
  headers: Array<[string, string]>;
  /** The body cut where the nonce was: joined around each request's own nonce. */
  pieces: Buffer[];
  nonce: string | null;
  etag: string;
  storedAt: number;
  freshMs: number;
  bytes: number;
}

/** Entries in least-recently-used order (a Map keeps insertion order), and their bytes. */
class Segment {
  readonly entries = new Map<string, Entry>();
  bytes = 0;

  add(key: string, entry: Entry) {
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
  }

  remove(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return entry;
  }

  oldest(): string | undefined {
    return this.entries.keys().next().value;
  }
}

export interface CachedAnswer {
  headers: Array<[string, string]>;
  /**
   * The body in parts: the stored bytes around this request's nonce, written to the socket one after
   * another (joining them copied the page for every answer). None for HEAD and for a 304.
   */
  body: readonly Buffer[];
  status: 200 | 304;
}

function maxAgeSeconds(cacheControl: string | null): number {
  if (!cacheControl || !/(^|,)\s*public\s*(,|$)/i.test(cacheControl)) return 0;
  if (/(^|,)\s*(no-store|no-cache|private)\b/i.test(cacheControl)) return 0;
  // A shared cache's own lifetime (s-maxage) comes before a browser's (max-age).
  const match = /(^|,)\s*s-maxage\s*=\s*(\d+)/i.exec(cacheControl) ?? /(^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl);
  return match ? Number(match[2]) : 0;
}

/** Whether an If-None-Match header names `etag` (weak or strong) or `*`. */
export function ifNoneMatchHolds(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
}

function splitAt(body: Buffer, marker: string | null): Buffer[] {
  if (!marker) return [body];
  const needle = Buffer.from(marker);
  const pieces: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(needle, start); at !== -1; at = body.indexOf(needle, start)) {
    pieces.push(body.subarray(start, at));
    start = at + needle.length;
  }
  pieces.push(body.subarray(start));
  return pieces;
}

export class SharedCache {
  private readonly probation = new Segment();
  private readonly protectedPart = new Segment();
  private clears = 0;

  constructor(
    private readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cache key of a request that may be answered from (and stored into) the cache, else null. */
  keyOf(method: string | undefined, target: string, headers: IncomingHttpHeaders): string | null {
    if (method !== "GET" && method !== "HEAD") return null;
    if ((headers.cookie ?? "").trim() !== "" || headers.authorization) return null;
    // A conditional or range request asks for something other than the whole page.
    if (headers.range) return null;
    return target;
  }

  /** The stored answer for `key` with `nonce` in place, or undefined when there is none fresh. */
  answer(key: string, { nonce, method, ifNoneMatch }: { nonce: string; method: string; ifNoneMatch?: string }): CachedAnswer | undefined {
    const entry = this.protectedPart.remove(key) ?? this.probation.remove(key);
    if (!entry) return undefined;
    const ageMs = this.now() - entry.storedAt;
    if (ageMs >= entry.freshMs) return undefined;
    this.protect(key, entry);
    const headers = entry.headers.map(([name, value]): [string, string] => [
      name,
      entry.nonce && name === "content-security-policy" ? value.replaceAll(entry.nonce, nonce) : value,
    ]);
    headers.push(["age", String(Math.floor(ageMs / 1000))]);
    if (ifNoneMatchHolds(ifNoneMatch, entry.etag)) {
      // The browser keeps its copy, whose scripts carry the nonce of its own policy: no new policy for it.
      return { status: 304, body: [], headers: headers.filter(([name]) => name !== "content-security-policy") };
    }
    if (method === "HEAD") return { status: 200, body: [], headers };
    // A page kept without a nonce is one piece: nothing goes between.
    const nonceBytes = Buffer.from(nonce);
    const body = entry.pieces.flatMap((piece, index) => (index === 0 ? [piece] : [nonceBytes, piece]));
    return { status: 200, body, headers };
  }

  /** Whether a response may be stored: see the rules at the top. */
  storable(status: number, headers: Headers): boolean {
    if (status !== 200 || headers.has("set-cookie")) return false;
    const vary = headers.get("vary");
    if (vary && vary.split(",").some((name) => !VARY_ALLOWED.has(name.trim().toLowerCase()))) return false;
    return maxAgeSeconds(headers.get("cache-control")) > 0;
  }

  /** Counts the clears: a response made before the last one (`generation` when it began) is not kept. */
  get generation(): number {
    return this.clears;
  }

  /**
   * Keeps a storable response's bytes; `nonce` is the one the app rendered into it, `madeIn` the
   * generation when its request began (one begun before a clear may show what the clear was for).
   * Returns the response's ETag (its own, or a strong one made from the bytes), which every answer carries.
   */
  store(key: string, headers: Headers, body: Buffer, nonce: string | undefined, madeIn = this.clears): string {
    const etag = headers.get("etag") ?? `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    const freshMs = maxAgeSeconds(headers.get("cache-control")) * 1000;
    if (freshMs <= 0 || body.length > this.maxBytes / 8 || madeIn !== this.clears) return etag;
    const kept: Array<[string, string]> = [];
    for (const [name, value] of headers) if (!PER_RESPONSE.has(name)) kept.push([name, value]);
    const policy = headers.get("content-security-policy") ?? "";
    const usedNonce = nonce && (body.includes(nonce) || policy.includes(nonce)) ? nonce : null;
    if (!headers.has("etag")) kept.push(["etag", etag]);
    const entry: Entry = {
      headers: kept,
      pieces: splitAt(Buffer.from(body), usedNonce),
      nonce: usedNonce,
      etag: etag.replace(/^W\//, ""),
      storedAt: this.now(),
      freshMs,
      bytes: body.length,
    };
    this.protectedPart.remove(key);
    this.probation.remove(key);
    this.probation.add(key, entry);
    while (this.probation.bytes + this.protectedPart.bytes > this.maxBytes) {
      const from = this.probation.entries.size > 0 ? this.probation : this.protectedPart;
      from.remove(from.oldest()!);
    }
    return etag;
  }

  clear(): void {
    this.clears += 1;
    for (const segment of [this.probation, this.protectedPart]) for (const key of [...segment.entries.keys()]) segment.remove(key);
  }

  /** Asked for again: protected, most recent; the protected part's least recent go back on probation. */
  private protect(key: string, entry: Entry) {
    this.protectedPart.add(key, entry);
    while (this.protectedPart.bytes > this.maxBytes * PROTECTED_SHARE && this.protectedPart.entries.size > 1) {
      const oldest = this.protectedPart.oldest()!;
      this.probation.add(oldest, this.protectedPart.remove(oldest)!);
    }
  }
}
