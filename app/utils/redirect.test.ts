import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it("keeps same-site paths", () => {
    expect(safeRedirectPath("/products/blaze/all?page=2")).toBe("/products/blaze/all?page=2");
  });
  it.each(["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", 42, undefined])("refuses %s", (value) =>
    expect(safeRedirectPath(value, "/cart")).toBe("/cart"),
  );
});

describe("safeRedirectPath against browser quirks", () => {
  it("refuses control characters that browsers strip (an open redirect otherwise)", () => {
    expect(safeRedirectPath("/\t/evil.example", "/cart")).toBe("/cart");
    expect(safeRedirectPath("/\n/evil.example", "/cart")).toBe("/cart");
  });
});
