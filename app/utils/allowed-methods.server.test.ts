import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { allowedMethods } from "./allowed-methods.server";

type Route = { id: string; path?: string; index?: boolean; hasAction: boolean };

function context(routes: Route[]): Pick<EntryContext, "manifest" | "staticHandlerContext"> {
  return {
    manifest: { routes: Object.fromEntries(routes.map((route) => [route.id, { hasAction: route.hasAction }])) },
    staticHandlerContext: { matches: routes.map((route) => ({ route: { id: route.id, path: route.path, index: route.index } })) },
  } as unknown as Pick<EntryContext, "manifest" | "staticHandlerContext">;
}

const root: Route = { id: "root", path: "", hasAction: false };

describe("allowedMethods", () => {
  it("names POST only for a route with an action", () => {
    const privacy = context([root, { id: "routes/privacy-policy", path: "privacy-policy", hasAction: false }]);
    expect(allowedMethods(new Request("http://x/privacy-policy", { method: "POST" }), privacy)).toBe("GET, HEAD");
    const cart = context([root, { id: "routes/cart", path: "cart", hasAction: true }]);
    expect(allowedMethods(new Request("http://x/cart", { method: "PUT" }), cart)).toBe("GET, HEAD, POST");
  });

  it("follows the router to root for / and to the index route for /?index", () => {
    const home = context([root, { id: "routes/_index", index: true, hasAction: true }]);
    expect(allowedMethods(new Request("http://x/", { method: "POST" }), home)).toBe("GET, HEAD");
    expect(allowedMethods(new Request("http://x/?index", { method: "POST" }), home)).toBe("GET, HEAD, POST");
  });
});
