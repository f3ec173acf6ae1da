import { describe, expect, it } from "vitest";
import { applyCachePolicy, CATALOGUE_CACHE_CONTROL, isPersonalPage } from "./cache-control.server";

const publicHeaders = () => new Headers({ "Cache-Control": CATALOGUE_CACHE_CONTROL });

describe("document cache policy", () => {
  it("keeps a catalogue page public, varying on Cookie, for a request without cookies", () => {
    const headers = publicHeaders();
    expect(applyCachePolicy(new Request("http://x/products/all/all"), 200, headers)).toBe(true);
    expect(headers.get("Cache-Control")).toBe(CATALOGUE_CACHE_CONTROL);
    expect(headers.get("Vary")).toBe("Cookie");
  });

  it("makes it private when the request carries a cookie (the header shows the cart) or the response sets one", () => {
    const withCart = publicHeaders();
    expect(applyCachePolicy(new Request("http://x/", { headers: { Cookie: "cart=abc" } }), 200, withCart)).toBe(false);
    expect(withCart.get("Cache-Control")).toBe("private, no-cache");
    const setting = publicHeaders();
    setting.set("Set-Cookie", "cart=abc");
    expect(applyCachePolicy(new Request("http://x/"), 200, setting)).toBe(false);
    expect(setting.get("Cache-Control")).toBe("private, no-cache");
  });

  it("never makes an error page public, and leaves pages without a declared policy alone", () => {
    const notFound = publicHeaders();
    expect(applyCachePolicy(new Request("http://x/product/nope-1"), 404, notFound)).toBe(false);
    expect(notFound.get("Cache-Control")).toBe("private, no-cache");
    const plain = new Headers();
    expect(applyCachePolicy(new Request("http://x/contact"), 200, plain)).toBe(false);
    expect(plain.has("Cache-Control")).toBe(false);
  });
});

describe("pages of one shopper's own data", () => {
  const page = (path: string) => new Request(`http://x${path}`);

  it("are private, no-store whatever the route declared, as documents and as their .data requests", () => {
    for (const path of ["/cart", "/cart.data", "/order-status/ABC-1.data?_routes=root", "/checkout-canceled-affirm", "/Checkout/"]) {
      const headers = publicHeaders();
      expect(applyCachePolicy(page(path), 200, headers), path).toBe(false);
      expect(headers.get("Cache-Control"), path).toBe("private, no-store");
      const undeclared = new Headers();
      applyCachePolicy(page(path), 302, undeclared);
      expect(undeclared.get("Cache-Control"), path).toBe("private, no-store");
    }
  });

  it("are told apart from pages whose path only starts the same", () => {
    expect(isPersonalPage(page("/checkout-authorized/stripe"))).toBe(true);
    expect(isPersonalPage(page("/order-status"))).toBe(true);
    expect(isPersonalPage(page("/_root.data"))).toBe(false);
    expect(isPersonalPage(page("/cartography"))).toBe(false);
    expect(isPersonalPage(page("/products/all/all.data"))).toBe(false);
    expect(isPersonalPage(page("/custom-product"))).toBe(false);
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
      expect(applyCachePolicy(request, status, headers), `${request.url} ${status}`).toBe(isPublic);
  });
});
