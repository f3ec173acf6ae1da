import type { ServerBuild } from "@remix-run/node";
import { declaredIndexing, INDEXING } from "./indexing";

/** What is read of a build's route: its place in the tree and its handle. */
type BuildRoute = Pick<ServerBuild["routes"][string], "id" | "path" | "index" | "parentId"> & { module: { handle?: unknown } };

/**
 * The URL prefixes robots.txt disallows, read from the build's routes (the
 * composition root does it once at start, server/main.ts): one per page whose
 * route, or a route around it, declares an indexing that is not to be crawled
 * (indexing.ts). A prefix is the page's URL up to its first parameter, so it
 * covers every page of that route: `checkout` → `/checkout`,
 * `order-status/:id/claim` → `/order-status/`. Root and pathless layouts have
 * no URL of their own (their pages have). Sorted, without a prefix another
 * one already covers (`/checkout` covers `/checkout-confirmation`).
 */
export function privatePathsOf(routes: Record<string, BuildRoute | undefined>): string[] {
  const prefixes = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route || (!route.path && !route.index)) continue;
    const chain = ancestry(routes, route);
    const indexing = declaredIndexing(chain.map((each) => each.module.handle));
    if (indexing && INDEXING[indexing].disallow) prefixes.add(urlPrefixOf(route.id, chain));
  }
  const sorted = [...prefixes].sort();
  return sorted.filter((prefix) => !sorted.some((other) => other !== prefix && prefix.startsWith(other)));
}

/** The route and the routes around it, outermost first. */
function ancestry(routes: Record<string, BuildRoute | undefined>, route: BuildRoute): BuildRoute[] {
  const chain: BuildRoute[] = [];
  for (let at: BuildRoute | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) chain.unshift(at);
  return chain;
}

/** The page's URL up to its first parameter (`:id`, an optional `(segment)`, a splat `*`), ending in "/" when one follows. */
function urlPrefixOf(id: string, chain: BuildRoute[]): string {
  const segments = chain.flatMap((route) => (route.path ?? "").split("/")).filter(Boolean);
  const firstParameter = segments.findIndex((segment) => /^[:*]|[()?]/.test(segment));
  const fixed = firstParameter === -1 ? segments : segments.slice(0, firstParameter);
  if (fixed.length === 0) {
    throw new Error(`Route ${id} is declared private, but its URL has no fixed start: robots.txt would disallow the whole store`);
  }
  return `/${fixed.join("/")}${firstParameter === -1 ? "" : "/"}`;
}
