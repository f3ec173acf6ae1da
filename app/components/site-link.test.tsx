import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { isStorePath, SiteLink } from "./site-link";

describe("SiteLink", () => {
  test("is a plain link to the page, marked for the page's click handler and not for eager route discovery", () => {
    const html = renderToString(
      <SiteLink to="/cart" className="cart-link" aria-label="Cart, 2 items">
        Cart
      </SiteLink>,
    );
    expect(html).toBe('<a class="cart-link" aria-label="Cart, 2 items" href="/cart" data-site-link="">Cart</a>');
  });

  test("only the store's own paths are opened client-side", () => {
    expect(isStorePath("/product/blaze-3159840?x=1#specs")).toBe(true);
    expect(isStorePath("//cdn.example.com/a")).toBe(false);
    expect(isStorePath("https://example.com/")).toBe(false);
    expect(isStorePath("#main")).toBe(false);
    expect(isStorePath("tel:8775550142")).toBe(false);
  });
});
