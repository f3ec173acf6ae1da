import { describe, expect, it } from "vitest";
import { applyCachePolicy, CATALOGUE_CACHE_CONTROL } from "./cache-control.server";

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
    expect(applyCachePolicy(new Request("http://x/cart"), 200, plain)).toBe(false);
    expect(plain.has("Cache-Control")).toBe(false);
  });
});
