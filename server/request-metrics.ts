import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { answeringRouteId, type RoutedBuild } from "../app/utils/route-match.server";
import { httpRequestDuration, renderDuration, statusClassOf } from "../app/observability/metrics.server";
import { requestPath } from "./guards";

/** Methods counted under their own name; anything else a client sends is "other", so a label never holds what a client made up. */
const COUNTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Paths whose route label is remembered; past it the memory starts again (labels are cheap to find, a few microseconds). */
const REMEMBERED_PATHS = 5_000;

/** When Remix was handed the request: set by the Remix handler, read here to observe the render time. */
const renderStarts = new WeakMap<ServerResponse, number>();

/** Marks the moment Remix takes the request (not for shared-cache answers or files): its render time runs from here to the answer's end. */
export function markRenderStart(res: ServerResponse): void {
  renderStarts.set(res, performance.now());
}

/**
 * Observes every request once it is answered (or the client left): its
 * duration by route, method and status class, and, for those Remix answered,
 * the render time. The route is the id of the Remix route that answers the
 * path ("routes/products.$slug"), "assets" for the build's files, "public"
 * for the other static files, "readyz", or "not-found": never the URL.
 */
export function requestMetrics(build: RoutedBuild & { publicPath: string }) {
  const routeOf = routeLabels(build);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const startedAt = performance.now();
    res.once("close", () => {
      const endedAt = performance.now();
      const route = routeOf(pathOf(req));
      const method = req.method && COUNTED_METHODS.has(req.method) ? req.method : "other";
      httpRequestDuration.observe({ route, method, status_class: statusClassOf(res.statusCode) }, (endedAt - startedAt) / 1000);
      const renderStartedAt = renderStarts.get(res);
      if (renderStartedAt !== undefined) renderDuration.observe({ route }, (endedAt - renderStartedAt) / 1000);
    });
    next();
  };
}

function routeLabels(build: RoutedBuild & { publicPath: string }): (pathname: string) => string {
  const remembered = new Map<string, string>();
  return (pathname) => {
    let label = remembered.get(pathname);
    if (label === undefined) {
      label = routeLabelOf(build, pathname);
      if (remembered.size >= REMEMBERED_PATHS) remembered.clear();
      remembered.set(pathname, label);
    }
    return label;
  };
}

function routeLabelOf(build: RoutedBuild & { publicPath: string }, pathname: string): string {
  if (pathname.startsWith(build.publicPath)) return "assets";
  if (pathname === "/readyz") return "readyz";
  const extension = path.extname(pathname);
  if (extension !== "" && extension !== ".data") return "public";
  try {
    return answeringRouteId(build, pathname) ?? "not-found";
  } catch {
    // A path Remix could not decode is answered 400 before any route: it matched none.
    return "not-found";
  }
}

/** The request's path, as it came (Express strips a mount path, /build/, from `url` while a mounted middleware answers). */
function pathOf(req: IncomingMessage): string {
  return (requestPath((req as { originalUrl?: string }).originalUrl ?? req.url) ?? "/").split("?")[0];
}
