import { describe, expect, it } from "vitest";
import { parseStaffRevokeArgs } from "./staff-revoke-args";

describe("npm run staff:revoke arguments", () => {
  it("takes one email, lower-cased, as the argument or --email", () => {
    expect(parseStaffRevokeArgs(["Jo@Example.com"])).toEqual({ ok: true, email: "jo@example.com" });
    expect(parseStaffRevokeArgs(["--email", "jo@example.com"])).toEqual({ ok: true, email: "jo@example.com" });
  });

  it.each([[[]], [["a@example.com", "b@example.com"]], [["not-an-email"]], [["--all"]]])("refuses %j with one line", (argv) => {
    const result = parseStaffRevokeArgs(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^[^\n]+Usage: npm run staff:revoke -- staff@example\.com$/);
  });
});
