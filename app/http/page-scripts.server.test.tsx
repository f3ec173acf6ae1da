import { Outlet, Scripts, UNSAFE_RemixContext } from "@remix-run/react";
import type { ContextType, ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { RouteObject } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { ServerPageScripts } from "./page-scripts.server";

/**
 * The contract with Remix that `ServerPageScripts` keeps (decision 026): on the same page it writes what
 * Remix's own `<Scripts>` writes, the hand-off script word for word, the module script's imports, partial
 * manifest and route modules, and the same first-load modules (Remix's `modulepreload` links, our starter's
 * list), only started after the first paint. Both are drawn here with the installed Remix; a Remix release
 * that changes what its `<Scripts>` writes fails this test, and `ServerPageScripts` is then changed to match.
 */

type RemixContextValue = NonNullable<ContextType<typeof UNSAFE_RemixContext>>;

const routeEntry = (id: string, parentId: string | undefined, path: string | undefined, index = false) => ({
  id,
  parentId,
  path,
  index,
  module: `/build/${id.replace("/", "-")}-ABC.js`,
  imports: [`/build/_shared/${id.replace("/", "-")}-dep.js`, "/build/_shared/shared-dep.js"],
  hasLoader: true,
  hasAction: false,
  hasClientLoader: false,
  hasClientAction: false,
  hasErrorBoundary: id === "root",
});

const MANIFEST = {
  version: "abc123",
  url: "/build/manifest-abc123.js",
  entry: { module: "/build/entry.client-XYZ.js", imports: ["/build/_shared/react-1.js", "/build/_shared/remix-2.js"] },
  routes: {
    root: routeEntry("root", undefined, ""),
    "routes/_index": routeEntry("routes/_index", "root", undefined, true),
    "routes/products": routeEntry("routes/products", "root", "products"),
    "routes/products._index": routeEntry("routes/products._index", "routes/products", undefined, true),
    "routes/products.$slug": routeEntry("routes/products.$slug", "routes/products", ":slug"),
    "routes/contact": routeEntry("routes/contact", "root", "contact"),
  },
} as unknown as RemixContextValue["manifest"];

/** The router's routes as Remix builds them from the manifest; the root draws the scripts under test. */
function routesDrawing(scripts: ReactNode): RouteObject[] {
  const leaf = (id: string, path?: string, index = false): RouteObject =>
    index ? { id, index: true, loader: () => null, element: <Outlet /> } : { id, path, loader: () => null, element: <Outlet /> };
  return [
    {
      id: "root",
      path: "/",
      loader: () => null,
      element: (
        <>
          <Outlet />
          {scripts}
        </>
      ),
      children: [
        leaf("routes/_index", undefined, true),
        {
          id: "routes/products",
          path: "products",
          loader: () => null,
          element: <Outlet />,
          children: [leaf("routes/products._index", undefined, true), leaf("routes/products.$slug", ":slug")],
        },
        leaf("routes/contact", "contact"),
      ],
    },
  ];
}

async function draw(scripts: ReactNode, path: string, future: Partial<RemixContextValue["future"]>) {
  const routes = routesDrawing(scripts);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://store.test${path}`));
  if (context instanceof Response) throw new Error(`no page at ${path}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const renderMeta: { didRenderScripts?: boolean } = {};
  const remix = {
    manifest: MANIFEST,
    routeModules: {},
    serverHandoffString: JSON.stringify({ state: { loaderData: { root: null } }, future, url: path }),
    future,
    isSpaMode: false,
    renderMeta,
  } as unknown as RemixContextValue;
  const html = renderToString(
    <UNSAFE_RemixContext.Provider value={remix}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </UNSAFE_RemixContext.Provider>,
  );
  return { html, didRenderScripts: renderMeta.didRenderScripts };
}

const scriptsOf = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, text]) => ({ attributes: attributes!, text: text! }));
const preloadsOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map(([, href]) => href!);

/** A module script's meaning: its statements in order, with the inlined manifest (if any) parsed. */
function moduleScript(text: string) {
  const manifest = /window\.__remixManifest = ([\s\S]*?);\s*window\.__remixRouteModules/.exec(text)?.[1];
  const statements = text
    .replace(/window\.__remixManifest = [\s\S]*?;(\s*window\.__remixRouteModules)/, "$1")
    .split(/;\s*|\n/)
    .map((statement) => statement.trim())
    .filter(Boolean);
  return { statements, manifest: manifest === undefined ? undefined : JSON.parse(manifest) };
}

describe("ServerPageScripts against Remix's own <Scripts>", () => {
  const storeFuture = remixConfig.future ?? {};
  it.each([
    ["with the store's future flags", { ...storeFuture }],
    ["without lazy route discovery", { ...storeFuture, v3_lazyRouteDiscovery: false }],
  ])("writes what Remix writes on nested pages, %s", async (_, future) => {
    for (const path of ["/", "/products/blaze-grill", "/contact"]) {
      const remix = await draw(<Scripts />, path, future);
      const ours = await draw(<ServerPageScripts />, path, future);
      expect(ours.didRenderScripts, path).toBe(true);
      expect(remix.didRenderScripts, path).toBe(true);

      const [remixContext, remixModules] = scriptsOf(remix.html);
      const [ourContext, ourModules, ourStarter] = scriptsOf(ours.html);
      expect(remixModules!.attributes).toContain('type="module"');
      expect(ourModules!.attributes).toContain('type="text/x-remix-module"');
      expect(ourContext!.text, path).toBe(remixContext!.text);
      expect(moduleScript(ourModules!.text), path).toEqual(moduleScript(remixModules!.text));

      // Remix links each first-load module in the page; ours preloads the same ones once the page has painted.
      const firstLoad = JSON.parse(/var p=(\[[^\]]*\])/.exec(ourStarter!.text)![1]!) as string[];
      expect(new Set(firstLoad), path).toEqual(new Set(preloadsOf(remix.html)));
      expect(preloadsOf(ours.html), path).toEqual([]);
    }
  });

  it("is checked with lazy route discovery on, as the store builds", () => {
    expect(storeFuture.v3_lazyRouteDiscovery).toBe(true);
  });
});
