import { matchedRoutes, type RoutedBuild } from "./route-match.server";

/**
 * HTTP caching of documents. Catalogue pages (home, lists, product pages,
 * search results) declare CATALOGUE_CACHE_CONTROL in their route `headers`;
 * a shared cache (a CDN) may keep them a minute and serve them stale while it
 * fetches a fresh copy. Such a page is the same for every shopper only while
 * the request carries no cookie: the header shows the cart's count and the
 * page carries the cart for the browser's mirror. So a request with a cookie,
 * or a response that sets one, always gets `private, no-cache` instead, and
 * public pages say `Vary: Cookie` so no cache hands one to a shopper who has one.
 *
 * Routes that show one shopper's own data (the cart, the checkouts, an order,
 * a payment, the staff pages) say so in their module (`handle = { personal: true }`,
 * for them and the routes under them), and every answer of theirs, page,
 * `.data`, redirect or error, is `private, no-store` whatever the route's
 * headers said. Which route that is, is what Remix itself matches for the
 * request: it decodes the path and ignores case, so `/ch%65ckout` and
 * `/CHECKOUT` are the checkout too (web cache deception, issue 40).
 *
 * The HTTP server applies this once to every answer Remix gives (server/app.ts).
 */

/**
 * A minute in a shared cache (the process's own, server/shared-cache.ts, emptied by every catalogue change:
 * ADR 029); a browser asks again each time (a 304 when nothing changed), so it never shows a price or a
 * product that changed since.
 */
export const CATALOGUE_CACHE_CONTROL = "public, max-age=0, s-maxage=60";

/** Route `headers` export of a catalogue page. */
export function catalogueHeaders() {
  return { "Cache-Control": CATALOGUE_CACHE_CONTROL };
}

export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** Whether the route Remix matches for the request, or one around it, shows one shopper's own data (or the staff's). */
export function isPersonalRoute(build: RoutedBuild, request: Request): boolean {
  return matchedRoutes(build, new URL(request.url).pathname).some(
    (match) => (match.route.handle as { personal?: unknown } | undefined)?.personal === true,
  );
}

function carriesPersonalData(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").trim() !== "";
}

function declaresPublic(headers: Headers): boolean {
  return /\bpublic\b/.test(headers.get("Cache-Control") ?? "");
}

/** Whether an answer declared public stays so: a 200 (or the 304 confirming one), and no cookie either way. */
function staysPublic(request: Request, status: number, headers: Headers): boolean {
  return (status === 200 || status === 304) && !carriesPersonalData(request) && !headers.has("Set-Cookie");
}

/** Applies the rule above to a response's headers; true when it is public (and so may carry an ETag and be kept by a shared cache). */
export function applyCachePolicy(build: RoutedBuild, request: Request, status: number, headers: Headers): boolean {
  if (isPersonalRoute(build, request)) {
    headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
    return false;
  }
  if (!declaresPublic(headers)) {
    // Any page shows the cart's count: an answer to a shopper's cookie that says nothing is no one else's either.
    if (!headers.has("Cache-Control") && carriesPersonalData(request)) headers.set("Cache-Control", "private, no-cache");
    return false;
  }
  if (!staysPublic(request, status, headers)) {
    headers.set("Cache-Control", "private, no-cache");
    return false;
  }
  const vary = headers.get("Vary");
  if (!vary || !/\bcookie\b/i.test(vary)) headers.set("Vary", vary ? `${vary}, Cookie` : "Cookie");
  return true;
}
