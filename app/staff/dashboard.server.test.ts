import { describe, expect, it } from "vitest";
import { escapeLike, MAX_PAGE, normalizeQuery, parsePage, statusSchema } from "./dashboard.server";

describe("dashboard input", () => {
  it("treats LIKE wildcards typed by staff as plain characters", () => {
    expect(escapeLike("100%_off\\")).toBe("100\\%\\_off\\\\");
  });

  it("reads a page number, falling back to 1 and capping deep pages", () => {
    expect(["", "0", "-3", "abc", undefined, null].map(parsePage)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(parsePage("7")).toBe(7);
    expect(parsePage("999999999")).toBe(MAX_PAGE);
  });

  it("trims and bounds the search text", () => {
    expect(normalizeQuery("  ada ")).toBe("ada");
    expect(normalizeQuery("x".repeat(500))).toHaveLength(100);
    expect(normalizeQuery(null)).toBe("");
  });

  it("knows exactly the four statuses", () => {
    expect(statusSchema.options).toEqual(["Approved", "Packed", "Shipped", "Cancelled"]);
    expect(statusSchema.safeParse("Lost").success).toBe(false);
    expect(statusSchema.safeParse("approved").success).toBe(false);
  });
});
