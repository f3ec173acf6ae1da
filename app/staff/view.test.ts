import { describe, expect, it } from "vitest";
import { dashboardHref } from "./view";

describe("dashboardHref", () => {
  it("keeps only what is set, so the URL can be shared", () => {
    expect(dashboardHref({})).toBe("/dashboard");
    expect(dashboardHref({ q: "", page: 1, order: null })).toBe("/dashboard");
    expect(dashboardHref({ q: "ada lovelace", page: 3, order: "K7Q2M9XW4P" })).toBe("/dashboard?q=ada+lovelace&page=3&order=K7Q2M9XW4P");
    expect(dashboardHref({ q: "a&b=c" })).toBe("/dashboard?q=a%26b%3Dc");
  });
});
