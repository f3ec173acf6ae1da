import { afterEach, beforeEach, vi, type MockInstance } from "vitest";
import { format } from "node:util";

/**
 * Unit and integration tests fail on a console.error they did not expect:
 * an error logged in passing is usually a bug the assertions missed.
 * Installed for every test file by vitest.config.ts (setupFiles).
 *
 * A test that expects one says so with `expectConsoleError()` (the returned
 * spy lets it check the message); a test that installs its own
 * `vi.spyOn(console, "error").mockImplementation(...)` has opted out too.
 */

let spy: MockInstance<typeof console.error> | undefined;
let unexpected: unknown[][] = [];
let expected = false;

/** Allows console.error in the current test, and requires at least one. The messages are kept out of the test output. */
export function expectConsoleError(): MockInstance<typeof console.error> {
  if (!spy) throw new Error("expectConsoleError() is for use inside a test");
  expected = true;
  return spy;
}

/** The unexpected console.error calls of the current test so far, as printed lines; clears them. */
export function takeUnexpectedConsoleErrors(): string[] {
  const lines = unexpected.map((args) => format(...args));
  unexpected = [];
  return lines;
}

beforeEach(() => {
  unexpected = [];
  expected = false;
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!expected) unexpected.push(args);
  });
});

afterEach(() => {
  const calls = spy?.mock.calls.length ?? 0;
  const wasExpected = expected;
  spy?.mockRestore();
  spy = undefined;
  expected = false;
  const lines = takeUnexpectedConsoleErrors();
  if (lines.length > 0) {
    throw new Error(`Unexpected console.error (call expectConsoleError() in a test that expects one):\n${lines.join("\n")}`);
  }
  if (wasExpected && calls === 0) throw new Error("expectConsoleError() was called but nothing was logged with console.error");
});
