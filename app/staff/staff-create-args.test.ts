import { describe, expect, it } from "vitest";
import { parseStaffCreateArgs } from "./staff-create-args";

const SECRET = "a-long-secret password";

describe("npm run staff:create arguments", () => {
  it("accepts an email and a password of 12+ characters, lower-casing the email", () => {
    expect(parseStaffCreateArgs(["--email", " Jo@Example.com ", "--password", SECRET])).toEqual({
      ok: true,
      email: "jo@example.com",
      password: SECRET,
      reset: false,
    });
    expect(parseStaffCreateArgs([`--email=jo@example.com`, `--password=${SECRET}`])).toMatchObject({ ok: true });
    expect(parseStaffCreateArgs(["--email", "jo@example.com", "--password", SECRET, "--reset"])).toMatchObject({ ok: true, reset: true });
  });

  it.each([
    [["--email", "jo@example.com"], "Both --email and --password are required."],
    [["--email", "not-an-email", "--password", SECRET], "The email must be a valid email address."],
    [["--email", "jo@example.com", "--password", "short-pass1"], "The password must be at least 12 characters long."],
    [["--email", "jo@example.com", "--password", SECRET, "--admin"], "Unknown option."],
    [["--email", "jo@example.com", "--password", "two", "words"], "Unexpected extra argument"],
  ])("refuses %j with one clear line", (argv, message) => {
    const result = parseStaffCreateArgs(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.error.split("\n")).toHaveLength(1);
      for (const arg of argv.slice(3)) if (arg !== "--admin") expect(result.error).not.toContain(arg);
    }
  });
});
