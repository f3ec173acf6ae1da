import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import type { RoutedBuild } from "~/utils/route-match.server";
import { applyCachePolicy, CATALOGUE_CACHE_CONTROL, isPersonalRoute } from "./cache-control.server";

const publicHeaders = () => new Headers({ "Cache-Control": CATALOGUE_CACHE_CONTROL });

type Route = ServerBuild["routes"][string];

/** A route of the stand-in build: its path under its parent, and whether its module says it is personal. */
function route(id: string, path: string | undefined, { parentId = "root", index = false, personal = false } = {}): Route {
  return { id, parentId, path, index, caseSensitive: undefined, module: (personal ? { handle: { personal } } : {}) as Route["module"] };
}

/** The store's routes in small: flat routes under root, a pathless staff layout, a splat for everything else. */
const build: RoutedBuild = {
  routes: Object.fromEntries(
    [
      route("root", "", { parentId: "" }),
      route("routes/_index", undefined, { index: true }),
      route("routes/cart", "cart", { personal: true }),
      route("routes/checkout", "checkout", { personal: true }),
      route("routes/custom-product", "custom-product"),
      route("routes/custom-product-checkout", "custom-product-checkout", { personal: true }),
      route("routes/checkout-authorized.$method", "checkout-authorized/:method", { personal: true }),
      route("routes/checkout-canceled-affirm", "checkout-canceled-affirm", { personal: true }),
      route("routes/order-status._index", "order-status", { index: true, personal: true }),
      route("routes/order-status.$id", "order-status/:id", { personal: true }),
      route("routes/_staff", undefined, { personal: true }),
      route("routes/_staff.login", "login", { parentId: "routes/_staff" }),
      route("routes/products.$brand.$category", "products/:brand/:category"),
      route("routes/$", "*"),
    ].map((each) => [each.id, each]),
  ),
  basename: undefined,
  future: { v3_singleFetch: true } as ServerBuild["future"],
};

describe("document cache policy", () => {
  it("keeps a catalogue page public, varying on Cookie, for a request without cookies", () => {
    const headers = publicHeaders();
    expect(applyCachePolicy(build, new Request("http://x/products/all/all"), 200, headers)).toBe(true);
    expect(headers.get("Cache-Control")).toBe(CATALOGUE_CACHE_CONTROL);
    expect(headers.get("Vary")).toBe("Cookie");
  });

  it("makes it private when the request carries a cookie (the header shows the cart) or the response sets one", () => {
    const withCart = publicHeaders();
    expect(applyCachePolicy(build, new Request("http://x/", { headers: { Cookie: "cart=abc" } }), 200, withCart)).toBe(false);
    expect(withCart.get("Cache-Control")).toBe("private, no-cache");
    const setting = publicHeaders();
    setting.set("Set-Cookie", "cart=abc");
    expect(applyCachePolicy(build, new Request("http://x/"), 200, setting)).toBe(false);
    expect(setting.get("Cache-Control")).toBe("private, no-cache");
  });

  it("never makes an error page public, and leaves pages without a declared policy alone unless a cookie came", () => {
    const notFound = publicHeaders();
    expect(applyCachePolicy(build, new Request("http://x/product/nope-1"), 404, notFound)).toBe(false);
    expect(notFound.get("Cache-Control")).toBe("private, no-cache");
    const plain = new Headers();
    expect(applyCachePolicy(build, new Request("http://x/contact"), 200, plain)).toBe(false);
    expect(plain.has("Cache-Control")).toBe(false);
    // The page shows that shopper's cart count.
    const cookied = new Headers();
    expect(applyCachePolicy(build, new Request("http://x/contact", { headers: { Cookie: "cart=abc" } }), 200, cookied)).toBe(false);
    expect(cookied.get("Cache-Control")).toBe("private, no-cache");
  });
});

describe("routes of one shopper's own data", () => {
  const page = (path: string) => new Request(`http://x${path}`);

  it("are private, no-store whatever the route declared, as documents and as their .data requests", () => {
    for (const path of ["/cart", "/cart.data", "/order-status/ABC-1.data?_routes=root", "/checkout-canceled-affirm", "/Checkout/"]) {
      const headers = publicHeaders();
      expect(applyCachePolicy(build, page(path), 200, headers), path).toBe(false);
      expect(headers.get("Cache-Control"), path).toBe("private, no-store");
      const undeclared = new Headers();
      applyCachePolicy(build, page(path), 302, undeclared);
      expect(undeclared.get("Cache-Control"), path).toBe("private, no-store");
    }
  });

  it("are told apart from pages whose path only starts the same", () => {
    expect(isPersonalRoute(build, page("/checkout-authorized/stripe"))).toBe(true);
    expect(isPersonalRoute(build, page("/order-status"))).toBe(true);
    expect(isPersonalRoute(build, page("/_root.data"))).toBe(false);
    expect(isPersonalRoute(build, page("/cartography"))).toBe(false);
    expect(isPersonalRoute(build, page("/cart/elsewhere"))).toBe(false);
    expect(isPersonalRoute(build, page("/products/all/all.data"))).toBe(false);
    expect(isPersonalRoute(build, page("/custom-product"))).toBe(false);
  });

  it("are found as Remix finds them: the path decoded, without case, under a personal layout too", () => {
    for (const path of ["/ch%65ckout", "/%63art", "/order%2Dstatus/ABC-1", "/c%61rt.data", "/CART.data", "/l%6Fgin", "/LOGIN/"])
      expect(isPersonalRoute(build, page(path)), path).toBe(true);
    for (const path of ["/products/%63art/all", "/cart%2Fx", "/cart.DATA"]) expect(isPersonalRoute(build, page(path)), path).toBe(false);
  });

  it("take a .data URL for its page only when the build speaks single fetch, as Remix does", () => {
    const withoutSingleFetch = { ...build, future: { v3_singleFetch: false } as ServerBuild["future"] };
    expect(isPersonalRoute(withoutSingleFetch, page("/cart.data"))).toBe(false);
  });

  it("sit under the build's basename", () => {
    const underShop = { ...build, basename: "/shop" };
    expect(isPersonalRoute(underShop, page("/shop/ch%65ckout"))).toBe(true);
    expect(isPersonalRoute(underShop, page("/checkout"))).toBe(false);
  });
});

describe("which answers stay public", () => {
  it("a public 200 or the 304 confirming it, without a cookie, on a page no shopper owns", () => {
    const cases: Array<[Request, number, Headers, boolean]> = [
      [new Request("http://x/products/all/all"), 200, publicHeaders(), true],
      [new Request("http://x/products/all/all"), 304, publicHeaders(), true],
      [new Request("http://x/", { headers: { Cookie: "cart=abc" } }), 200, publicHeaders(), false],
      [new Request("http://x/cart"), 200, publicHeaders(), false],
      [new Request("http://x/product/nope-1"), 404, publicHeaders(), false],
      [new Request("http://x/about"), 200, new Headers(), false],
    ];
    for (const [request, status, headers, isPublic] of cases)
      expect(applyCachePolicy(build, request, status, headers), `${request.url} ${status}`).toBe(isPublic);
  });
});
