import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

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

export const CATALOGUE_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";

/** Route `headers` export of a catalogue page. */
export function catalogueHeaders() {
  return { "Cache-Control": CATALOGUE_CACHE_CONTROL };
}

export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** The part of a build this rule reads: its routes, and the path prefix they sit under. */
export type RoutedBuild = Pick<ServerBuild, "routes" | "basename" | "future">;

const routeTrees = new WeakMap<ServerBuild["routes"], AgnosticRouteObject[]>();

/** The build's routes as the tree Remix matches a request against (as @remix-run/server-runtime's own createRoutes makes it). */
function routeTreeOf(routes: ServerBuild["routes"], parentId = ""): AgnosticRouteObject[] {
  const children = Object.values(routes).filter((route) => (route.parentId ?? "") === parentId);
  return children.map(({ id, path, index, caseSensitive, module }) =>
    index
      ? { id, path, index, caseSensitive, handle: module.handle }
      : { id, path, caseSensitive, handle: module.handle, children: routeTreeOf(routes, id) },
  );
}

function cachedRouteTree(routes: ServerBuild["routes"]): AgnosticRouteObject[] {
  let tree = routeTrees.get(routes);
  if (!tree) routeTrees.set(routes, (tree = routeTreeOf(routes)));
  return tree;
}

/** The path Remix routes a request by: a single-fetch data URL (`/cart.data`, `/_root.data`) names its page's path. */
function routedPathOf(build: RoutedBuild, request: Request): string {
  const { pathname } = new URL(request.url);
  return build.future.v3_singleFetch && pathname.endsWith(".data") ? pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") : pathname;
}

/** Whether the route Remix matches for the request, or one around it, shows one shopper's own data (or the staff's). */
export function isPersonalRoute(build: RoutedBuild, request: Request): boolean {
  const matches = matchRoutes(cachedRouteTree(build.routes), routedPathOf(build, request), build.basename);
  return matches?.some((match) => (match.route.handle as { personal?: unknown } | undefined)?.personal === true) ?? false;
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
