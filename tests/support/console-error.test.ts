import { describe, expect, it, vi } from "vitest";
import { expectConsoleError, takeUnexpectedConsoleErrors } from "./console-error";

describe("the console.error guard", () => {
  it("records a console.error the test did not expect (the guard then fails the test)", () => {
    console.error("something broke: %s", "details");
    expect(takeUnexpectedConsoleErrors()).toEqual(["something broke: details"]);
  });

  it("lets a test that calls expectConsoleError() log, and gives it the spy", () => {
    const error = expectConsoleError();
    console.error("expected failure");
    expect(error).toHaveBeenCalledWith("expected failure");
    expect(takeUnexpectedConsoleErrors()).toEqual([]);
  });

  it("lets a test that installs its own spy log", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    console.error("handled by the test's own spy");
    expect(error).toHaveBeenCalledOnce();
    expect(takeUnexpectedConsoleErrors()).toEqual([]);
  });
});
