import { createStaticHandler, createStaticRouter } from "react-router-dom/server";
import type { RouteObject } from "react-router-dom";
import { describe, expect, test } from "vitest";

/**
 * What patches/react-router-dom+6.30.4.patch changes (ADR 017), checked on the installed package:
 * the server's static router converts a route tree once and reuses it, while each request keeps
 * its own location, matches and data.
 */
const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    loader: () => "root data",
    children: [
      { id: "home", index: true },
      { id: "product", path: "product/:key", loader: ({ params }) => `product ${params.key}` },
    ],
  },
];

async function contextFor(path: string) {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://store.test${path}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  return context;
}

describe("React Router's static router as patched", () => {
  test("two requests on the same route tree share its converted routes", async () => {
    const first = createStaticRouter(routes, await contextFor("/"));
    const second = createStaticRouter(routes, await contextFor("/product/blaze-3159840"));
    expect(second.routes).toBe(first.routes);
  });

  test("each request keeps its own location, matches and data", async () => {
    const home = createStaticRouter(routes, await contextFor("/"));
    const product = createStaticRouter(routes, await contextFor("/product/blaze-3159840"));
    expect(home.state.location.pathname).toBe("/");
    expect(home.state.matches.map((match) => match.route.id)).toEqual(["root", "home"]);
    expect(product.state.matches.map((match) => match.route.id)).toEqual(["root", "product"]);
    expect(product.state.matches[1].params).toEqual({ key: "blaze-3159840" });
    expect(product.state.loaderData).toEqual({ root: "root data", product: "product blaze-3159840" });
    // The matches point at the converted routes (what rendering reads), not at the tree passed in.
    expect(product.state.matches[1].route).toBe(product.routes[0].children?.[1]);
  });

  test("another route tree is converted on its own", async () => {
    const other: RouteObject[] = [{ id: "root", path: "/" }];
    const first = createStaticRouter(routes, await contextFor("/"));
    const handler = createStaticHandler(other);
    const context = await handler.query(new Request("http://store.test/"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    expect(createStaticRouter(other, context).routes).not.toBe(first.routes);
  });
});
