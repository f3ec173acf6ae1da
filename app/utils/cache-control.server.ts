/**
 * HTTP caching of documents. Catalogue pages (home, lists, product pages,
 * search results) declare CATALOGUE_CACHE_CONTROL in their route `headers`;
 * a shared cache (a CDN) may keep them a minute and serve them stale while it
 * fetches a fresh copy. Such a page is the same for every shopper only while
 * the request carries no cookie: the header shows the cart's count and the
 * page carries the cart for the browser's mirror. So a request with a cookie,
 * or a response that sets one, always gets `private, no-cache` instead, and
 * public pages say `Vary: Cookie` so no cache hands one to a shopper who has one.
 */

export const CATALOGUE_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";

/** Route `headers` export of a catalogue page. */
export function catalogueHeaders() {
  return { "Cache-Control": CATALOGUE_CACHE_CONTROL };
}

function carriesPersonalData(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").trim() !== "";
}

/** Applies the rule above to a response's headers (pages in entry.server, every response again in the HTTP server); true when it is public. */
export function applyCachePolicy(request: Request, status: number, headers: Headers): boolean {
  const declared = headers.get("Cache-Control");
  if (!declared || !/\bpublic\b/.test(declared)) return false;
  if (status !== 200 || carriesPersonalData(request) || headers.has("Set-Cookie")) {
    headers.set("Cache-Control", "private, no-cache");
    return false;
  }
  const vary = headers.get("Vary");
  if (!vary || !/\bcookie\b/i.test(vary)) headers.set("Vary", vary ? `${vary}, Cookie` : "Cookie");
  return true;
}
