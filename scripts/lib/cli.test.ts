import { describe, expect, it } from "vitest";
import { HELP_OPTION, TARGET_OPTIONS, UsageError, intOption, parseCli, resolveTarget } from "./cli";

const options = { ...HELP_OPTION, ...TARGET_OPTIONS, count: { type: "string" }, quiet: { type: "boolean" } } as const;

describe("parseCli", () => {
  it("reads --name value, --name=value, booleans and -h", () => {
    expect(parseCli(["--count", "5", "--pglite-dir=memory://x", "--quiet"], options)).toEqual({
      count: "5",
      "pglite-dir": "memory://x",
      quiet: true,
    });
    expect(parseCli(["-h"], options)).toEqual({ help: true });
  });

  it("refuses unknown flags, missing values and stray arguments with a short usage error", () => {
    expect(() => parseCli(["--cuont", "5"], options)).toThrow(new UsageError("unknown option --cuont"));
    expect(() => parseCli(["--count"], options)).toThrow(new UsageError("--count needs a value"));
    expect(() => parseCli(["stray"], options)).toThrow(new UsageError("unexpected argument stray"));
  });
});

describe("intOption", () => {
  it("accepts 100_000 and 100,000, falls back when absent, refuses non-integers and values below the minimum", () => {
    expect(intOption("100_000", "count", 1)).toBe(100_000);
    expect(intOption("100,000", "count", 1)).toBe(100_000);
    expect(intOption(undefined, "count", 7)).toBe(7);
    expect(() => intOption("1.5", "count", 1)).toThrow('--count must be an integer >= 1 (got "1.5")');
    expect(() => intOption("0", "count", 1)).toThrow(UsageError);
    expect(intOption("0", "seed", 1, 0)).toBe(0);
  });
});

describe("resolveTarget", () => {
  it("defaults to the synthetic PGlite directory and refuses two targets at once", () => {
    expect(resolveTarget({}).target).toEqual({ pgliteDir: "./data/pglite-synth" });
    expect(() => resolveTarget({ "database-url": "postgres://x/db", "pglite-dir": "d" })).toThrow(UsageError);
    expect(() => resolveTarget({ "database-url": "mysql://x/db" })).toThrow(UsageError);
  });
});
