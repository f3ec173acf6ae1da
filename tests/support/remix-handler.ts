import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { registerStoreIdentity } from "~/components/layout/store-identity";
import { neutralizeCrossSiteOrigin } from "~/http/request-screen";
import { publicConfig } from "~/public-config.server";
import type { StoreRuntime } from "~/store-runtime";
import remixConfig from "../../remix.config.js";
import { testContext } from "./test-runtime";

/**
 * The whole store as one `(Request) => Response` function, in this process and
 * without `remix build`: the route files are read the way the compiler reads
 * them (flat routes, remix.config.js), imported by vitest, and handed to
 * Remix's own request handler with entry.server.tsx. Requests go through the
 * router, the loaders and actions, the error boundaries and the HTML render,
 * exactly as on the built server; only the browser assets are missing.
 * Every request gets `store` as its context's runtime unless the test passes
 * a context of its own (tests/support/test-runtime.ts).
 */
const APP_DIRECTORY = path.resolve("app");

/** Every route module of app/routes, loaded lazily (vitest resolves and transforms them). */
type Glob = (patterns: string[]) => Record<string, () => Promise<unknown>>;
const routeModules = (import.meta as ImportMeta & { glob: Glob }).glob([
  "../../app/routes/*.{ts,tsx}",
  "!../../app/routes/*.test.{ts,tsx}",
]);

export interface RouteFile {
  id: string;
  /** The file name under app/routes. */
  file: string;
  /** The URL pattern, e.g. `/product/:productKey`, `/products/:brand/:category`, `/*`. */
  pattern: string;
  index: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  /** No default export: a resource route (JSON, image, text). */
  resource: boolean;
}

export interface StoreHandler {
  handle(request: Request, context?: AppLoadContext): Promise<Response>;
  routes: RouteFile[];
  /** The build itself, for the store's HTTP server (server/app.ts) in front of it. */
  build: ServerBuild;
}

export async function createStoreHandler(store: StoreRuntime): Promise<StoreHandler> {
  // As the composition root does at start (server/main.ts): the error page drawn without root's data needs them.
  registerStoreIdentity(publicConfig(store.config));
  const manifest = flatRoutes(APP_DIRECTORY, remixConfig.ignoredRouteFiles);
  const serverRoutes: ServerBuild["routes"] = {};
  const assetRoutes: ServerBuild["assets"]["routes"] = {};
  const routes: RouteFile[] = [];
  const all = [
    { id: "root", file: "root.tsx", parentId: undefined, path: "", index: false, caseSensitive: undefined },
    ...Object.values(manifest),
  ];
  for (const route of all) {
    const module: AnyRouteModule = route.id === "root" ? ((await import("~/root")) as AnyRouteModule) : await loadRouteModule(route.file);
    serverRoutes[route.id] = {
      id: route.id,
      parentId: route.parentId,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      module,
    };
    assetRoutes[route.id] = {
      id: route.id,
      parentId: route.parentId,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      hasAction: typeof module.action === "function",
      hasLoader: typeof module.loader === "function",
      hasClientAction: typeof module.clientAction === "function",
      hasClientLoader: typeof module.clientLoader === "function",
      hasErrorBoundary: typeof module.ErrorBoundary === "function",
      module: `/build/${route.id}.js`,
      imports: [],
      css: [],
    };
    if (route.id !== "root") {
      routes.push({
        id: route.id,
        file: route.file.replace(/^routes\//, ""),
        pattern: patternOf(route.id, manifest),
        index: Boolean(route.index),
        hasLoader: typeof module.loader === "function",
        hasAction: typeof module.action === "function",
        resource: typeof module.default !== "function",
      });
    }
  }
  const entry = (await import("~/entry.server")) as unknown as ServerBuild["entry"]["module"];
  const build: ServerBuild = {
    mode: "production",
    entry: { module: entry },
    routes: serverRoutes,
    assets: {
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: assetRoutes,
      url: "/build/manifest-test.js",
      version: "test",
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: { ...remixConfig.future } as ServerBuild["future"],
    isSpaMode: false,
  };
  const handler = createRequestHandler(build, "production");
  // As the store's HTTP server does in front of Remix (request-screen.ts): a cross-site post reaches the action's own 403.
  return { handle: (request, context = testContext(store)) => handler(neutralizeCrossSiteOrigin(request), context), routes, build };
}

type AnyRouteModule = ServerBuild["routes"][string]["module"] & { clientAction?: unknown; clientLoader?: unknown };

async function loadRouteModule(file: string): Promise<AnyRouteModule> {
  const load = routeModules[`../../app/${file}`];
  if (!load) throw new Error(`route file not found by the test handler: ${file}`);
  return (await load()) as AnyRouteModule;
}

/** The full URL pattern of a route: its path joined to its parents' paths. */
function patternOf(id: string, manifest: ReturnType<typeof flatRoutes>): string {
  const parts: string[] = [];
  for (
    let route: (typeof manifest)[string] | undefined = manifest[id];
    route;
    route = route.parentId ? manifest[route.parentId] : undefined
  ) {
    if (route.path) parts.unshift(route.path);
  }
  return `/${parts.join("/")}`;
}
