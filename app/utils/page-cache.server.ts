import { createHash, randomBytes } from "node:crypto";
import type { EntryContext } from "@remix-run/node";

/**
 * Rendered HTML kept in the server process, keyed by the URL and a digest of
 * every loader's data. A page is a pure function of its URL and its loader
 * data, so two requests with the same key get the same bytes: the catalogue
 * pages every shopper sees alike are rendered once (until their data changes)
 * instead of on every visit, and a page with personal data (a cart) can only
 * ever be served again to a request whose loaders produced that same data.
 *
 * Not kept: anything but a 200 to GET/HEAD, pages with action data or errors,
 * and pages with data still streaming (deferred promises). The CSP nonce, which
 * changes per request, is rendered as a placeholder and put in on the way out.
 */

const MAX_BYTES = 32 * 1024 * 1024;
const MAX_AGE_MS = 10 * 60_000;
/** Stands in for the per-request CSP nonce inside cached HTML. */
export const NONCE_PLACEHOLDER = `n${randomBytes(12).toString("hex")}`;

export interface CachedPage {
  /**
   * The UTF-8 bytes, encoded once, cut where the nonce goes: the response joins the
   * pieces around this request's nonce (bytes, not text: a text body costs a scan of
   * the whole page for unpaired surrogates on every response).
   */
  pieces: Uint8Array<ArrayBuffer>[];
  /** Memory the page holds, for the bound. */
  bytes: number;
  /** Strong validator of the bytes (before the nonce is put in). */
  etag: string;
  storedAt: number;
}

const pages = new Map<string, CachedPage>();
const utf8 = new TextEncoder();
let totalBytes = 0;

function hasPendingData(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  if (typeof (value as { then?: unknown }).then === "function") return true;
  return Object.values(value).some((inner) => inner !== null && typeof (inner as { then?: unknown })?.then === "function");
}

/** The cache key of this document render, or null when it must not be kept. */
export function pageCacheKey(request: Request, status: number, context: EntryContext, withNonce: boolean): string | null {
  if ((request.method !== "GET" && request.method !== "HEAD") || status !== 200) return null;
  const handler = context.staticHandlerContext;
  if (handler.actionData || handler.errors) return null;
  if (Object.values(handler.loaderData).some(hasPendingData)) return null;
  let data: string;
  try {
    data = JSON.stringify(handler.loaderData);
  } catch {
    return null;
  }
  const digest = createHash("sha256")
    .update(`${withNonce ? "n" : "-"}${request.url}\u0000`)
    .update(data)
    .digest("base64url");
  return digest;
}

export function cachedPage(key: string): CachedPage | undefined {
  const page = pages.get(key);
  if (!page) return undefined;
  if (Date.now() - page.storedAt > MAX_AGE_MS) {
    forget(key, page);
    return undefined;
  }
  pages.delete(key);
  pages.set(key, page);
  return page;
}

export function storePage(key: string, html: string): CachedPage {
  const pieces = html.split(NONCE_PLACEHOLDER).map((piece) => utf8.encode(piece));
  const hash = createHash("sha256");
  for (const piece of pieces) hash.update(piece);
  const page: CachedPage = {
    pieces,
    bytes: pieces.reduce((sum, piece) => sum + piece.byteLength, 0),
    etag: `"${hash.digest("base64url").slice(0, 27)}"`,
    storedAt: Date.now(),
  };
  const previous = pages.get(key);
  if (previous) forget(key, previous);
  if (page.bytes > MAX_BYTES / 8) return page;
  pages.set(key, page);
  totalBytes += page.bytes;
  for (const [oldKey, old] of pages) {
    if (totalBytes <= MAX_BYTES) break;
    forget(oldKey, old);
  }
  return page;
}

function forget(key: string, page: CachedPage) {
  if (pages.get(key) === page) {
    pages.delete(key);
    totalBytes -= page.bytes;
  }
}

/** The page's bytes for this request, with its nonce in place. */
export function pageHtml(page: CachedPage, nonce: string | undefined): Uint8Array<ArrayBuffer> {
  if (page.pieces.length === 1) return page.pieces[0];
  const nonceBytes = utf8.encode(nonce ?? "");
  const joined = new Uint8Array(page.bytes + nonceBytes.byteLength * (page.pieces.length - 1));
  let offset = 0;
  page.pieces.forEach((piece, index) => {
    if (index > 0) {
      joined.set(nonceBytes, offset);
      offset += nonceBytes.byteLength;
    }
    joined.set(piece, offset);
    offset += piece.byteLength;
  });
  return joined;
}

/** Whether a conditional request already holds these bytes. */
export function notModified(request: Request, etag: string): boolean {
  return ifNoneMatchHolds(request.headers.get("If-None-Match"), etag);
}

/** Whether an If-None-Match header names `etag` (weak or strong) or `*`. */
export function ifNoneMatchHolds(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
}

/** For tests. */
export function clearPageCache() {
  pages.clear();
  totalBytes = 0;
}
