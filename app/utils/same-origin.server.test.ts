import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./same-origin.server";

const post = (headers: Record<string, string>) => new Request("http://store.test/api/stripe", { method: "POST", headers });

describe("isCrossSiteRequest", () => {
  it("trusts Sec-Fetch-Site when the browser sends it", () => {
    expect(isCrossSiteRequest(post({ "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossSiteRequest(post({ "Sec-Fetch-Site": "cross-site", Origin: "http://store.test" }))).toBe(true);
    expect(isCrossSiteRequest(post({ "Sec-Fetch-Site": "same-site" }))).toBe(true);
  });

  it("compares Origin with the request's and the public origin", () => {
    expect(isCrossSiteRequest(post({ Origin: "http://store.test" }))).toBe(false);
    expect(isCrossSiteRequest(post({ Origin: "https://shop.example.com" }), "https://shop.example.com/")).toBe(false);
    expect(isCrossSiteRequest(post({ Origin: "https://evil.example" }), "https://shop.example.com")).toBe(true);
    expect(isCrossSiteRequest(post({ Origin: "null" }))).toBe(true);
  });

  it("lets requests without browser headers through", () => {
    expect(isCrossSiteRequest(post({}))).toBe(false);
  });
});
