import { describe, expect, it } from "vitest";
import { shouldUseSecureCookies } from "./cookies.server";

describe("shouldUseSecureCookies", () => {
  const auto = { SECURE_COOKIES: "auto" } as const;

  it("follows the request URL's scheme, which the server builds from the trusted protocol", () => {
    expect(shouldUseSecureCookies(new Request("https://shop.example/cart"), auto)).toBe(true);
    expect(shouldUseSecureCookies(new Request("http://shop.example/cart"), auto)).toBe(false);
  });

  it("never follows an X-Forwarded-Proto header", () => {
    const claimsHttps = new Request("http://shop.example/cart", { headers: { "X-Forwarded-Proto": "https" } });
    expect(shouldUseSecureCookies(claimsHttps, auto)).toBe(false);
    const claimsHttp = new Request("https://shop.example/cart", { headers: { "X-Forwarded-Proto": "http" } });
    expect(shouldUseSecureCookies(claimsHttp, auto)).toBe(true);
  });

  it("is forced by SECURE_COOKIES", () => {
    expect(shouldUseSecureCookies(new Request("http://shop.example/"), { SECURE_COOKIES: "always" })).toBe(true);
    expect(shouldUseSecureCookies(new Request("https://shop.example/"), { SECURE_COOKIES: "never" })).toBe(false);
  });
});
