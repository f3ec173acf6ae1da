import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject, type AgnosticRouteMatch } from "@remix-run/router";

/**
 * Which of the build's routes Remix matches for a path, found the way Remix
 * itself finds them (it decodes the path and ignores case): the cache rule
 * asks whether one is personal (app/utils/cache-control.server.ts), the
 * metrics label a request by the deepest one's id.
 */

/** The part of a build route matching reads: its routes, and the path prefix they sit under. */
export type RoutedBuild = Pick<ServerBuild, "routes" | "basename" | "future">;

const routeTrees = new WeakMap<ServerBuild["routes"], AgnosticRouteObject[]>();

/** Paths matched before, per build: most requests are for a page asked for before, and React Router ranks the whole tree on every match. */
const matchesByPath = new WeakMap<ServerBuild["routes"], Map<string, AgnosticRouteMatch[]>>();
/** Enough for every page a store's shoppers keep asking for; past it the memory starts again, so a crawl of random paths costs nothing lasting. */
const REMEMBERED_PATHS = 2000;

/** The routes matched for `pathname`, outermost first; none when no route matches (a 404). Callers only read them. */
export function matchedRoutes(build: RoutedBuild, pathname: string): AgnosticRouteMatch[] {
  let remembered = matchesByPath.get(build.routes);
  if (!remembered) matchesByPath.set(build.routes, (remembered = new Map()));
  const routedPath = routedPathOf(build, pathname);
  let matches = remembered.get(routedPath);
  if (!matches) {
    matches = matchRoutes(cachedRouteTree(build.routes), routedPath, build.basename) ?? [];
    if (remembered.size >= REMEMBERED_PATHS) remembered.clear();
    remembered.set(routedPath, matches);
  }
  return matches;
}

/** The id of the route that answers `pathname` (e.g. "routes/products.$slug"), or null when none matches. */
export function answeringRouteId(build: RoutedBuild, pathname: string): string | null {
  const matches = matchedRoutes(build, pathname);
  return matches.length > 0 ? (matches[matches.length - 1].route.id ?? null) : null;
}

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
function routedPathOf(build: RoutedBuild, pathname: string): string {
  return build.future.v3_singleFetch && pathname.endsWith(".data") ? pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") : pathname;
}
