import * as commonJsBuild from "@remix-run/router";
import type { AgnosticDataRouteObject } from "@remix-run/router";
import { describe, expect, test } from "vitest";

type RouterLibrary = typeof commonJsBuild;
/** The server loads the CommonJS build (`main`), the browser bundle the ES module (`module`): both are patched. */
const BUILDS: Array<[string, RouterLibrary]> = [
  ["CommonJS build (server)", commonJsBuild],
  // The ES module file, by path: its types are the package's.
  ["ES module build (browser)", (await import("@remix-run/router/dist/router.js")) as unknown as RouterLibrary],
];

/**
 * What patches/@remix-run+router+1.23.3.patch changes (ADR 017), checked on the
 * installed package: routes patched in after start-up do not redraw the page,
 * and the kept route rankings and compiled patterns never answer with a stale
 * route tree.
 */
const CONTACT: AgnosticDataRouteObject = { id: "contact", path: "contact" };

/** A router on a memory history; a navigation to /contact discovers that route first, as Remix's lazy discovery does. */
function startRouter({ createMemoryHistory, createRouter }: RouterLibrary) {
  const routes: AgnosticDataRouteObject[] = [
    { id: "root", path: "/", children: [{ id: "home", index: true }] },
    { id: "products", path: "/products/:brand/:category" },
  ];
  const router = createRouter({
    routes,
    history: createMemoryHistory({ initialEntries: ["/"] }),
    hydrationData: { loaderData: {} },
    patchRoutesOnNavigation: ({ path, patch }) => {
      if (path === "/contact") patch("root", [CONTACT]);
    },
  });
  return router.initialize();
}

describe.each(BUILDS)("React Router as patched: %s", (_name, library) => {
  const { matchRoutes } = library;
  test("routes patched in (lazy discovery) do not give subscribers a new state", () => {
    const router = startRouter(library);
    const states: unknown[] = [];
    const unsubscribe = router.subscribe((state) => states.push(state));
    router.patchRoutes("root", [CONTACT]);
    expect(states).toEqual([]);
    expect(router.routes.flatMap((route) => route.children ?? []).map((route) => route.id)).toContain("contact");
    unsubscribe();
    router.dispose();
  });

  test("a route discovered during a navigation is found, though the tree was matched (and ranked) before", async () => {
    const router = startRouter(library);
    expect(matchRoutes(router.routes, "/contact")).toBeNull();
    await router.navigate("/contact");
    expect(router.state.matches.map((match) => match.route.id)).toEqual(["root", "contact"]);
    expect(matchRoutes(router.routes, "/contact")?.map((match) => match.route.id)).toEqual(["root", "contact"]);
    router.dispose();
  });

  test("the same tree matched again answers the same way, parameters and case included", () => {
    const routes: AgnosticDataRouteObject[] = [
      { id: "product", path: "/product/:key" },
      { id: "list", path: "/products/:brand/:category" },
      { id: "exact", path: "/Staff", caseSensitive: true },
    ];
    for (let round = 0; round < 3; round++) {
      expect(matchRoutes(routes, "/product/blaze-3159840")?.[0].params).toEqual({ key: "blaze-3159840" });
      expect(matchRoutes(routes, "/products/all/Gas%20Grills")?.[0].params).toEqual({ brand: "all", category: "Gas Grills" });
      expect(matchRoutes(routes, "/PRODUCT/x")?.[0].route.id).toBe("product");
      expect(matchRoutes(routes, "/staff")).toBeNull();
      expect(matchRoutes(routes, "/Staff")?.[0].route.id).toBe("exact");
    }
  });
});
