import { describe, expect, it } from "vitest";
import { generateOrderId, generateToken, normalizeOrderId, ORDER_ID_ALPHABET } from "./order-id";

describe("order ids", () => {
  it("are 10 readable characters from an alphabet without look-alikes", () => {
    const id = generateOrderId();
    expect(id).toHaveLength(10);
    expect([...id].every((char) => ORDER_ID_ALPHABET.includes(char))).toBe(true);
    expect(ORDER_ID_ALPHABET).not.toMatch(/[01OIL]/);
  });
  it("do not repeat", () => {
    const ids = new Set(Array.from({ length: 5000 }, generateOrderId));
    expect(ids.size).toBe(5000);
  });
  it("accept what a shopper types with spaces, dashes and lower case", () => {
    expect(normalizeOrderId(" k7q2-m9xw 4p ")).toBe("K7Q2M9XW4P");
  });
  it("makes long random tokens", () => {
    expect(generateToken()).toMatch(/^[A-Za-z0-9]{24}$/);
  });
});
