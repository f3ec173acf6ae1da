import { describe, expect, it, vi } from "vitest";
import { logError, logger } from "~/observability/logger.server";
import { expectErrorLog, takeUnexpectedErrors } from "./error-log";

describe("the error-log guard", () => {
  it("records an error the test did not expect, logged or printed (the guard then fails the test)", () => {
    logError("something broke", new Error("details"));
    console.error("a library complains: %s", "loudly");
    expect(takeUnexpectedErrors()).toEqual(["something broke: details", "a library complains: loudly"]);
  });

  it("lets a test that calls expectErrorLog() log, and gives it the messages", () => {
    const errors = expectErrorLog();
    logError("expected failure");
    expect(errors.messages()).toEqual(["expected failure"]);
    expect(takeUnexpectedErrors()).toEqual([]);
  });

  it("lets a test that installs its own spy log", () => {
    const error = vi.spyOn(logger, "error").mockImplementation((() => {}) as never);
    logError("handled by the test's own spy");
    expect(error).toHaveBeenCalledOnce();
    expect(takeUnexpectedErrors()).toEqual([]);
  });
});
