import { describe, expect, it } from "vitest";
import { linkifyText } from "./linkify";

describe("linkifyText", () => {
  it("turns http(s) addresses into links and leaves the rest as text", () => {
    expect(linkifyText("View your order: https://shop.example.com/order-status?orderId=A1&from=email\nThanks")).toEqual([
      { type: "text", value: "View your order: " },
      {
        type: "link",
        value: "https://shop.example.com/order-status?orderId=A1&from=email",
        href: "https://shop.example.com/order-status?orderId=A1&from=email",
      },
      { type: "text", value: "\nThanks" },
    ]);
  });

  it("keeps sentence punctuation out of the link", () => {
    const parts = linkifyText("See http://127.0.0.1:3000/order-status/K7Q2. Or (https://example.com/x).");
    expect(parts.filter((part) => part.type === "link").map((part) => part.value)).toEqual([
      "http://127.0.0.1:3000/order-status/K7Q2",
      "https://example.com/x",
    ]);
  });

  it("never links other schemes", () => {
    expect(linkifyText("javascript:alert(1) mailto:a@b.c")).toEqual([{ type: "text", value: "javascript:alert(1) mailto:a@b.c" }]);
  });

  it("handles text without links and empty text", () => {
    expect(linkifyText("plain")).toEqual([{ type: "text", value: "plain" }]);
    expect(linkifyText("")).toEqual([]);
  });
});
