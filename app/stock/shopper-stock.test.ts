import { describe, expect, it } from "vitest";
import type { StockLevel } from "./availability";
import {
  cartShortageMessage,
  cardStock,
  productStockView,
  quantityRefusalMessage,
  quantityRefusals,
  wantedPerProduct,
  withCardStock,
} from "./shopper-stock";

const tracked = (available: number): StockLevel => ({ policy: "tracked", available });
const madeToOrder: StockLevel = { policy: "made-to-order", leadTime: "4 - 6 weeks" };
const untracked: StockLevel = { policy: "untracked" };

describe("the product page's stock", () => {
  it("says In Stock with the 24-hour note, any quantity up to what is there", () => {
    expect(productStockView(tracked(50), { freeShipping: true })).toEqual({
      kind: "in-stock",
      label: "In Stock",
      note: "Leaves warehouse within 24 Hours · Free Shipping",
      schemaOrg: "https://schema.org/InStock",
      buyable: true,
      max: 50,
    });
  });

  it("says Only N left under the threshold, still leaving within 24 hours", () => {
    expect(productStockView(tracked(3))).toMatchObject({
      kind: "low",
      label: "Only 3 left",
      note: "Leaves warehouse within 24 Hours",
      schemaOrg: "https://schema.org/LimitedAvailability",
      buyable: true,
      max: 3,
    });
  });

  it("says Out of stock, with no shipping promise, and nothing can be bought", () => {
    expect(productStockView(tracked(0), { freeShipping: true })).toEqual({
      kind: "out",
      label: "Out of stock",
      note: "Free Shipping",
      schemaOrg: "https://schema.org/OutOfStock",
      buyable: false,
      max: 0,
    });
  });

  it("gives a made-to-order product its lead time from the data, and no limit", () => {
    expect(productStockView({ policy: "made-to-order", leadTime: "8 - 10 weeks" })).toEqual({
      kind: "made-to-order",
      label: "Made to order",
      note: "Leaves warehouse in 8 - 10 weeks",
      schemaOrg: "https://schema.org/MadeToOrder",
      buyable: true,
      max: null,
    });
  });

  it("treats a product not counted as in stock with no limit", () => {
    expect(productStockView(untracked)).toMatchObject({ kind: "in-stock", label: "In Stock", buyable: true, max: null });
  });
});

describe("a card's stock", () => {
  it("adds nothing to a card in plain stock, counted or not", () => {
    expect(cardStock("blaze", tracked(6))).toBeNull();
    expect(cardStock("blaze", untracked)).toBeNull();
    expect(cardStock("blaze", undefined)).toBeNull();
  });

  it("says how few are left, and out of stock with no ADD TO CART", () => {
    expect(cardStock("blaze", tracked(5))).toEqual({ stock: "Only 5 left · Leaves Warehouse: 24 Hrs" });
    expect(cardStock("blaze", tracked(0))).toEqual({ stock: "Out of stock", soldOut: true });
  });

  it("shows a made-to-order lead time from the data, only where the brand's own line does not already say it", () => {
    expect(cardStock("the_outdoor_plus", madeToOrder)).toBeNull();
    expect(cardStock("the_outdoor_plus", { policy: "made-to-order", leadTime: "8 - 10 weeks" })).toEqual({
      stock: "Leaves Warehouse: 8 - 10 Weeks",
    });
    expect(cardStock("blaze", madeToOrder)).toEqual({ stock: "Leaves Warehouse: 4 - 6 Weeks" });
    // The made-to-order brand's product counted in stock leaves within 24 hours.
    expect(cardStock("the_outdoor_plus", tracked(20))).toEqual({ stock: "Leaves Warehouse: 24 Hrs" });
  });

  it("keeps the very card objects in plain stock, and copies only the others", () => {
    const cards = [
      { key: "blaze-1", brand: "blaze" },
      { key: "blaze-2", brand: "blaze" },
    ];
    const stocked = withCardStock(
      cards,
      new Map([
        ["blaze-1", tracked(40)],
        ["blaze-2", tracked(0)],
      ]),
    );
    expect(stocked[0]).toBe(cards[0]);
    expect(stocked[1]).toEqual({ key: "blaze-2", brand: "blaze", stock: "Out of stock", soldOut: true });
    expect(cards[1]).toEqual({ key: "blaze-2", brand: "blaze" });
  });
});

describe("quantities refused for stock", () => {
  const levels = new Map<string, StockLevel>([
    ["weber-1", tracked(2)],
    ["weber-2", tracked(1)],
    ["weber-3", tracked(0)],
    ["outdoor-4", madeToOrder],
  ]);

  it("refuses more than is available, naming the product and how many are left", () => {
    const refused = quantityRefusals([{ productKey: "weber-1", title: "Weber Spirit E-310", quantity: 3 }], levels);
    expect(quantityRefusalMessage(refused)).toBe("Only 2 of Weber Spirit E-310 are left.");
    expect(quantityRefusalMessage(quantityRefusals([{ productKey: "weber-2", title: "Cover", quantity: 2 }], levels))).toBe(
      "Only 1 of Cover is left.",
    );
    expect(quantityRefusalMessage(quantityRefusals([{ productKey: "weber-3", title: "Tongs", quantity: 1 }], levels))).toBe(
      "Tongs is out of stock.",
    );
  });

  it("says what the cart holds already", () => {
    const refused = quantityRefusals([{ productKey: "weber-1", title: "Weber Spirit E-310", quantity: 3, inCart: 2 }], levels);
    expect(quantityRefusalMessage(refused)).toBe("Only 2 of Weber Spirit E-310 are left, and your cart already has 2.");
  });

  it("takes what is there, and any number of a product made to order or not counted", () => {
    expect(
      quantityRefusals(
        [
          { productKey: "weber-1", title: "Grill", quantity: 2 },
          { productKey: "outdoor-4", title: "Fire bowl", quantity: 500 },
          { productKey: "blaze-unknown", title: "Not counted", quantity: 999 },
        ],
        levels,
      ),
    ).toEqual([]);
  });

  it("adds up the cart's lines of one product before comparing", () => {
    const lines = [
      { productKey: "weber-1", title: "Grill", quantity: 1 },
      { productKey: "outdoor-4", title: "Fire bowl", quantity: 3 },
      { productKey: "weber-1", title: "Grill", quantity: 2 },
    ];
    expect(wantedPerProduct(lines)).toEqual([
      { productKey: "weber-1", title: "Grill", quantity: 3 },
      { productKey: "outdoor-4", title: "Fire bowl", quantity: 3 },
    ]);
    expect(cartShortageMessage(lines, levels)).toBe("Only 2 of Grill are left, and your cart has 3: please lower the quantity.");
    expect(cartShortageMessage([{ productKey: "weber-3", title: "Tongs", quantity: 1 }], levels)).toBe(
      "Tongs is out of stock: please remove it from your cart.",
    );
    expect(cartShortageMessage([{ productKey: "weber-1", title: "Grill", quantity: 2 }], levels)).toBeNull();
  });
});
