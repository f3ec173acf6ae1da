import { describe, expect, it } from "vitest";
import {
  addLine,
  CART_FULL_MESSAGE,
  CART_NOTICES,
  CartFullError,
  isCartNotice,
  MAX_CART_LINES,
  removeLine,
  sanitizeCart,
  setLineQuantity,
  totalQuantity,
  type Cart,
} from "./cart";

describe("cart", () => {
  const grill = "blaze-3159840";
  const rub = "custom_product-LOVE-RUB-001";

  it("appends without merging the same product", () => {
    const cart = addLine(addLine([], grill, 1), grill, 2);
    expect(cart).toEqual([
      { productKey: grill, quantity: 1 },
      { productKey: grill, quantity: 2 },
    ]);
    expect(totalQuantity(cart)).toBe(3);
  });

  it("removes and updates by position", () => {
    const cart: Cart = [
      { productKey: grill, quantity: 1 },
      { productKey: rub, quantity: 1 },
      { productKey: grill, quantity: 4 },
    ];
    expect(removeLine(cart, 0)).toEqual([cart[1], cart[2]]);
    expect(setLineQuantity(cart, 2, 0)[2].quantity).toBe(1);
    expect(setLineQuantity(cart, 1, 3.8)[1].quantity).toBe(3);
    expect(setLineQuantity(cart, 1, Number.NaN)[1].quantity).toBe(1);
  });

  it("refuses a line beyond the limit instead of losing the cart", () => {
    let cart: Cart = [];
    for (let i = 0; i < MAX_CART_LINES; i += 1) cart = addLine(cart, rub, 1);
    expect(() => addLine(cart, grill, 1)).toThrow(CartFullError);
    expect(cart).toHaveLength(MAX_CART_LINES);
  });

  it("keeps only well-formed lines from untrusted input", () => {
    expect(sanitizeCart([{ productKey: grill, quantity: "2" }, { productKey: 5 }, null, { productKey: rub, quantity: -3 }])).toEqual([
      { productKey: grill, quantity: 2 },
      { productKey: rub, quantity: 1 },
    ]);
    expect(sanitizeCart("nope")).toEqual([]);
  });
});

describe("cart notices", () => {
  it("name each refusal with its own message, and nothing else", () => {
    expect(CART_NOTICES.full).toBe(CART_FULL_MESSAGE);
    expect(CART_NOTICES.unavailable).toBe("That product is no longer available.");
    expect(isCartNotice("unavailable")).toBe(true);
    expect(isCartNotice("<script>")).toBe(false);
    expect(isCartNotice("toString")).toBe(false);
  });
});
