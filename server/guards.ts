/**
 * What the server refuses before a request reaches Remix, as plain checks.
 */

/** Methods passed on to the app; a route answers 405 itself for those it does not take (with the store's error page). */
const APP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** What the server's own 405 says the store takes. */
export const ALLOWED_METHODS = "GET, HEAD, POST";

/** TRACE, TRACK, CONNECT and anything unknown are refused (TRACE echoes headers, cookies included, back to a page's script). */
export function isAppMethod(method: string | undefined): boolean {
  return APP_METHODS.has(method ?? "");
}

// A DNS name (letters, digits, hyphens, dots), an IPv4 address or a bracketed IPv6 address, and an optional port.
const HOST_PATTERN =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A Host header the request URL can be built from; anything else is a 400. */
export function isValidHost(host: string | undefined): host is string {
  if (!host || host.length > 255 || !HOST_PATTERN.test(host)) return false;
  const port = /:(\d+)$/.exec(host.startsWith("[") ? host.slice(host.indexOf("]")) : host);
  return !port || Number(port[1]) <= 65535;
}

/**
 * The path and query of the request target: origin-form ("/a?b") as it is,
 * absolute-form ("http://host/a?b", what proxies send) reduced to its path;
 * null for anything else ("*", "example.com:443").
 */
export function requestPath(target: string | undefined): string | null {
  if (!target) return null;
  if (target.startsWith("/")) return target;
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      return null;
    }
  }
  return null;
}

/** The declared body length: a number, null when there is none, NaN when it is not a valid length. */
export function declaredLength(header: string | undefined): number | null {
  if (header === undefined) return null;
  return /^\d+$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
}

/**
 * A `?_data=` request: Remix's data protocol before single fetch, which this store does not speak (its pages ask
 * `/page.data`). Only an old cached client or a scanner sends one; Remix would log each as an error.
 */
export function isOldDataRequest(target: string): boolean {
  const query = target.indexOf("?");
  return query !== -1 && new URLSearchParams(target.slice(query + 1)).has("_data");
}
