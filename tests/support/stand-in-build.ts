import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";

/** What answers every request of a stand-in build: the request, and the load context the server made for it. */
export type StandInHandler = (request: Request, context: AppLoadContext) => Promise<Response>;

/** A route module without a default export (Remix's types want one): what makes a route a resource route. */
type ResourceRouteModule = ServerBuild["routes"][string]["module"];

/**
 * A Remix build whose one resource route (at every path, "/" included) has
 * `handle` as its loader and action: the store's HTTP server (server/app.ts) runs it
 * through Remix and the Express adapter exactly as it runs the app, so tests
 * of the server see what it does before and around any route. Its static
 * files are served from `assetsBuildDirectory` at /build/: by default an empty directory of its own
 * (the server lists the directory's brotli copies at start, so never the whole of the system's /tmp).
 */
export function standInBuild(
  handle: StandInHandler,
  { assetsBuildDirectory = mkdtempSync(path.join(tmpdir(), "stand-in-build-")) }: { assetsBuildDirectory?: string } = {},
): ServerBuild {
  const respond = ({ request, context }: { request: Request; context: AppLoadContext }) => handle(request, context);
  const route = { id: "everything", parentId: "root", path: "*", index: undefined, caseSensitive: undefined };
  // "/" matches the root layout before a splat: an index route takes it.
  const home = { id: "home", parentId: "root", path: undefined, index: true, caseSensitive: undefined };
  return {
    mode: "production",
    entry: {
      module: {
        // No page route: the document handler never runs.
        default: () => new Response("no pages in the stand-in build", { status: 500 }),
      },
    },
    routes: {
      root: { id: "root", parentId: undefined, path: "", index: undefined, caseSensitive: undefined, module: {} as ResourceRouteModule },
      everything: { ...route, module: { loader: respond, action: respond } as unknown as ResourceRouteModule },
      home: { ...home, module: { loader: respond, action: respond } as unknown as ResourceRouteModule },
    },
    assets: {
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: {
        root: {
          id: "root",
          path: "",
          hasAction: false,
          hasLoader: false,
          hasClientAction: false,
          hasClientLoader: false,
          hasErrorBoundary: false,
          module: "/build/root.js",
        },
        everything: {
          ...route,
          hasAction: true,
          hasLoader: true,
          hasClientAction: false,
          hasClientLoader: false,
          hasErrorBoundary: false,
          module: "/build/everything.js",
        },
      },
      url: "/build/manifest-stand-in.js",
      version: "stand-in",
    },
    publicPath: "/build/",
    assetsBuildDirectory,
    // Single fetch off (the app's types say it is on): a `.data` address is one more path the stand-in answers.
    future: { v3_singleFetch: false } as unknown as ServerBuild["future"],
    isSpaMode: false,
  };
}
