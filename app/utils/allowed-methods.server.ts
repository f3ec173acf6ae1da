import type { EntryContext } from "@remix-run/node";

/**
 * What a 405 page says the address accepts. The router answers 405 itself
 * for a POST (or PUT...) to a route without an action; our actions read their
 * form with readForm, which answers 405 to anything but POST. Either way the
 * route's Response headers do not reach the page, so the header is set here,
 * for the route the router sent the request to (see docs/decisions/007).
 */
export function allowedMethods(request: Request, context: Pick<EntryContext, "manifest" | "staticHandlerContext">): string {
  const { matches } = context.staticHandlerContext;
  // The router's own choice (getTargetMatch): the deepest route with a path, or the index route when `?index` is in the URL.
  const nakedIndex = new URL(request.url).searchParams.getAll("index").includes("");
  const withPath = matches.filter((match, position) => position === 0 || Boolean(match.route.path));
  const target = nakedIndex && matches.at(-1)?.route.index ? matches.at(-1) : withPath.at(-1);
  return target && context.manifest.routes[target.route.id]?.hasAction ? "GET, HEAD, POST" : "GET, HEAD";
}

/**
 * The action of a resource route that only answers GET (an image, the sitemap, a redirect...):
 * `export const action = refuseNonGet;` turns the router's bare 405 (a JSON "Unexpected Server
 * Error" without `Allow`) for POST, PUT, PATCH and DELETE into a readable one that says what is allowed.
 */
export function refuseNonGet(): Response {
  return new Response("This address answers GET and HEAD only.", {
    status: 405,
    headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Headers a refusal carries that the page must keep: a 429's or 503's `Retry-After`. */
const KEPT_FROM_ROUTES = ["Retry-After"] as const;

/**
 * The headers of KEPT_FROM_ROUTES that a loader or action set on its answer, returned or thrown:
 * Remix passes only cookies on to the document unless every route exports `headers`, so
 * entry.server.tsx copies these from the router's record of each route's headers.
 */
export function keptRouteHeaders(context: Pick<EntryContext, "staticHandlerContext">): Array<[string, string]> {
  const { actionHeaders, loaderHeaders } = context.staticHandlerContext;
  const kept: Array<[string, string]> = [];
  for (const name of KEPT_FROM_ROUTES) {
    const value = [...Object.values(actionHeaders), ...Object.values(loaderHeaders)].map((headers) => headers.get(name)).find(Boolean);
    if (value) kept.push([name, value]);
  }
  return kept;
}
