import { describe, expect, it, vi } from "vitest";
import { parseStaffCreateArgs, readStaffPassword, type PasswordInput } from "./staff-create-args";

const SECRET = "a-long-secret password";

describe("npm run staff:create arguments", () => {
  it("accepts an email, lower-casing it, with its role, and --reset", () => {
    expect(parseStaffCreateArgs(["--email", " Jo@Example.com ", "--role", "owner"])).toEqual({
      ok: true,
      email: "jo@example.com",
      reset: false,
      role: "owner",
    });
    expect(parseStaffCreateArgs(["--email=jo@example.com", "--role=staff"])).toMatchObject({ ok: true, role: "staff" });
    expect(parseStaffCreateArgs(["--role", " Owner ", "--email", "jo@example.com"])).toMatchObject({ ok: true, role: "owner" });
    expect(parseStaffCreateArgs(["--email", "jo@example.com", "--role", "staff", "--reset"])).toEqual({
      ok: true,
      email: "jo@example.com",
      reset: true,
      role: "staff",
    });
  });

  it("keeps the account's role on --reset without --role", () => {
    expect(parseStaffCreateArgs(["--email", "jo@example.com", "--reset"])).toEqual({
      ok: true,
      email: "jo@example.com",
      reset: true,
      role: null,
    });
  });

  it.each([
    [[], "--email is required."],
    [["--role", "owner"], "--email is required."],
    [["--email", "not-an-email", "--role", "owner"], "The email must be a valid email address."],
    [["--email", "jo@example.com", "--role", "owner", "--admin"], "Unknown option."],
    [["--email", "jo@example.com", "--role", "owner", "stray"], "Unexpected extra argument."],
    [["--email"], "--email needs a value."],
    [["--email", "jo@example.com", "--role"], "--role needs a value: owner or staff."],
  ])("refuses %j with one clear line", (argv, message) => {
    const result = parseStaffCreateArgs(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.error.split("\n")).toHaveLength(1);
      expect(result.error).not.toContain("stray");
    }
  });

  it("refuses to create an account without a role, in one line naming the two", () => {
    const result = parseStaffCreateArgs(["--email", "jo@example.com"]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain("--role is required to create an account: owner or staff");
      expect(result.error).toContain("--role owner|staff");
      expect(result.error.split("\n")).toHaveLength(1);
    }
  });

  it.each([
    [["--email", "jo@example.com", "--role", "admin"]],
    [["--email", "jo@example.com", "--role", "admin", "--reset"]],
    [["--email", "jo@example.com", "--role=owners"]],
    [["--email", "jo@example.com", "--role="]],
  ])("refuses a role that is neither owner nor staff, without repeating it: %j", (argv) => {
    expect(parseStaffCreateArgs(argv)).toEqual({ ok: false, error: "--role must be owner or staff." });
  });

  it.each([
    [["--email", "jo@example.com", "--role", "owner", "--password", "correct", "horse", "battery"]],
    [["--password=correct horse battery", "--email", "jo@example.com", "--role", "staff"]],
    [["--email", "jo@example.com", "--password"]],
  ])("refuses a password on the command line, saying how to give it, without repeating it: %j", (argv) => {
    const result = parseStaffCreateArgs(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.split("\n")).toHaveLength(1);
      expect(result.error).toContain("STAFF_PASSWORD");
      expect(result.error).toContain("standard input");
      for (const word of ["correct", "horse", "battery"]) expect(result.error).not.toContain(word);
    }
  });
});

describe("the staff password's source", () => {
  const input = (overrides: Partial<PasswordInput>): PasswordInput => ({
    stdinIsTTY: false,
    env: {},
    promptHidden: vi.fn(() => Promise.reject(new Error("no terminal"))),
    readStdin: vi.fn(() => Promise.reject(new Error("no stdin"))),
    ...overrides,
  });

  it("asks twice at a terminal and takes the password when both answers match", async () => {
    const promptHidden = vi.fn(() => Promise.resolve(SECRET));
    const read = await readStaffPassword(
      input({ stdinIsTTY: true, env: { STAFF_PASSWORD: "ignored-at-a-terminal" }, promptHidden }),
      "jo@example.com",
    );
    expect(read).toEqual({ ok: true, password: SECRET });
    expect(promptHidden).toHaveBeenCalledTimes(2);
    expect(promptHidden).toHaveBeenNthCalledWith(1, "Password for jo@example.com: ");
  });

  it("refuses two answers that differ, without repeating either", async () => {
    const answers = [SECRET, `${SECRET}!`];
    const read = await readStaffPassword(input({ stdinIsTTY: true, promptHidden: async () => answers.shift()! }), "jo@example.com");
    expect(read).toEqual({ ok: false, error: "The two passwords do not match; nothing was changed." });
  });

  it("takes STAFF_PASSWORD when standard input is not a terminal", async () => {
    expect(await readStaffPassword(input({ env: { STAFF_PASSWORD: SECRET } }), "jo@example.com")).toEqual({ ok: true, password: SECRET });
  });

  it.each([
    [`${SECRET}\n`, SECRET],
    [`${SECRET}\r\n`, SECRET],
    [SECRET, SECRET],
    [`${SECRET}\n\n`, `${SECRET}\n`],
  ])("otherwise reads standard input without one trailing newline: %j", async (stdin, password) => {
    const read = await readStaffPassword(input({ readStdin: async () => stdin }), "jo@example.com");
    expect(read).toEqual({ ok: true, password });
  });

  it.each([
    [input({ readStdin: async () => "\n" }), "No password given"],
    [input({ readStdin: async () => "too-short\n" }), "The password must be at least 12 characters long."],
    [input({ env: { STAFF_PASSWORD: "too-short" } }), "The password must be at least 12 characters long."],
    [input({ stdinIsTTY: true, promptHidden: async () => "too-short" }), "The password must be at least 12 characters long."],
  ])("keeps the password rules, in one line that does not repeat it (%#)", async (source, message) => {
    const read = await readStaffPassword(source, "jo@example.com");
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error).toContain(message);
      expect(read.error).not.toContain("too-short");
      expect(read.error.split("\n")).toHaveLength(1);
    }
  });
});
