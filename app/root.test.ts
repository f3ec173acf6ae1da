import { describe, expect, it } from "vitest";
import { shouldRevalidate } from "./root";

type Args = Parameters<typeof shouldRevalidate>[0];

function revalidates(from: string, to: string, extra: Partial<Args> = {}): boolean {
  const args = {
    currentUrl: new URL(from, "http://store.test"),
    nextUrl: new URL(to, "http://store.test"),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  } as Args;
  return shouldRevalidate(args);
}

describe("the root loader's revalidation", () => {
  it("keeps its data while browsing catalog pages", () => {
    expect(revalidates("/products/all/all", "/product/blaze-3159840")).toBe(false);
    expect(revalidates("/product/blaze-3159840", "/products/blaze/all?page=2")).toBe(false);
    expect(revalidates("/", "/finding/grill", { formMethod: "GET" })).toBe(false);
  });

  it("runs after every form post or fetcher action, whatever its status", () => {
    expect(revalidates("/product/blaze-3159840", "/product/blaze-3159840", { formMethod: "POST", defaultShouldRevalidate: false })).toBe(
      true,
    );
    expect(revalidates("/chatbot", "/chatbot", { formMethod: "post" })).toBe(true);
  });

  it("runs on the pages that show the cart and on an explicit reload", () => {
    expect(revalidates("/products/all/all", "/cart")).toBe(true);
    expect(revalidates("/cart", "/checkout")).toBe(true);
    expect(revalidates("/", "/single-product-checkout?product=blaze-1")).toBe(true);
    // The thank-you page empties the cart: the header must show it empty after a script-driven payment.
    expect(revalidates("/checkout?checkout=abc", "/checkout-authorized/paypal?checkout_token=abc&attempt=pa_1")).toBe(true);
    expect(revalidates("/products/all/all", "/products/all/all")).toBe(true);
  });
});
