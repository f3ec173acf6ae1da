import { describe, expect, it } from "vitest";
import {
  appendMessages,
  cleanInput,
  createMessage,
  MAX_HISTORY,
  MAX_INPUT_LENGTH,
  PRODUCT_REPLY_DELAY_MS,
  QUICK_OPTIONS,
  replyDelayFor,
  truncate,
  welcomeMessage,
} from "./conversation";

describe("cleanInput", () => {
  it("does not send empty or blank text", () => {
    for (const blank of ["", "   ", "\n\n\t", "\r\n \r\n", "\u0000\u0007"]) expect(cleanInput(blank)).toBeNull();
    expect(cleanInput(undefined)).toBeNull();
    expect(cleanInput(42)).toBeNull();
  });

  it("trims, normalizes line endings and squeezes blank lines, keeping single newlines", () => {
    expect(cleanInput("  hello \r\nthere\r\n\r\n\r\n\r\nbye  ")).toBe("hello\nthere\n\nbye");
  });

  it(`cuts long input at ${MAX_INPUT_LENGTH} characters`, () => {
    const long = "grill ".repeat(2_000);
    const cut = cleanInput(long);
    expect(cut).not.toBeNull();
    expect(Array.from(cut ?? "").length).toBeLessThanOrEqual(MAX_INPUT_LENGTH);
    expect(cut?.startsWith("grill grill")).toBe(true);
  });

  it("never splits a character made of two code units", () => {
    const cut = cleanInput("🔥".repeat(MAX_INPUT_LENGTH + 10)) ?? "";
    expect(Array.from(cut)).toHaveLength(MAX_INPUT_LENGTH);
    expect(cut).toBe("🔥".repeat(MAX_INPUT_LENGTH));
  });
});

describe("truncate", () => {
  it("leaves short text alone and ends cut text with an ellipsis within the limit", () => {
    expect(truncate("short", 10)).toBe("short");
    expect(truncate("a long sentence here", 10)).toBe("a long se…");
    expect(Array.from(truncate("x".repeat(50), 10))).toHaveLength(10);
  });
});

describe("messages", () => {
  it("carries sender, text, an ISO timestamp, and links and options only when there are some", () => {
    const at = new Date("2025-06-01T12:30:00Z");
    expect(createMessage("user", "Hi", {}, at)).toEqual({ sender: "user", text: "Hi", timestamp: "2025-06-01T12:30:00.000Z" });
    expect(createMessage("server", "See", { links: [{ label: "A", href: "/a" }], options: [] }, at)).toEqual({
      sender: "server",
      text: "See",
      timestamp: "2025-06-01T12:30:00.000Z",
      links: [{ label: "A", href: "/a" }],
    });
  });

  it(`keeps the newest ${MAX_HISTORY} messages`, () => {
    const many = Array.from({ length: 40 }, (_, index) => createMessage("user", `m${index}`));
    const kept = appendMessages(many, createMessage("server", "last"));
    expect(kept).toHaveLength(MAX_HISTORY);
    expect(kept[0].text).toBe("m11");
    expect(kept.at(-1)?.text).toBe("last");
  });

  it("welcomes with the three quick options", () => {
    const welcome = welcomeMessage("Outdoor Kitchen Outlet");
    expect(welcome.sender).toBe("server");
    expect(welcome.text).toContain("Outdoor Kitchen Outlet");
    expect(welcome.options?.map((option) => option.label)).toEqual(["Products", "Contact", "Delivery"]);
    expect(QUICK_OPTIONS.map((option) => option.value)).toEqual(["products", "contact", "delivery"]);
  });

  it("delays only the product reply, by 500 ms", () => {
    expect(PRODUCT_REPLY_DELAY_MS).toBe(500);
    expect(replyDelayFor("product:blaze-3159840")).toBe(500);
    for (const value of ["products", "contact", "delivery", "brand:blaze"]) expect(replyDelayFor(value)).toBe(0);
  });
});
