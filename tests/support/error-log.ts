import { afterEach, beforeEach, vi, type MockInstance } from "vitest";
import { format } from "node:util";
import { logger, type SerializedError } from "~/observability/logger.server";

/**
 * Unit and integration tests fail on an error they did not expect: an
 * error-level line of the store's log (app/observability/logger.server.ts) or a
 * console.error (a library's): an error logged in passing is usually a bug
 * the assertions missed. Installed for every test file by vitest.config.ts
 * (setupFiles).
 *
 * A test that expects one says so with `expectErrorLog()`, which gives it the
 * messages logged so far; a test that installs its own
 * `vi.spyOn(logger, "error")` (or console.error) with a mockImplementation has
 * opted out too.
 */

let spies: MockInstance[] = [];
let messages: string[] = [];
let unexpected: string[] = [];
let expected = false;

/** What was logged as errors in this test so far: each line's message (and its error's, after a colon). */
export interface ErrorLog {
  messages(): string[];
}

/** Allows error logs in the current test, and requires at least one. They are kept out of the test output. */
export function expectErrorLog(): ErrorLog {
  if (spies.length === 0) throw new Error("expectErrorLog() is for use inside a test");
  expected = true;
  return { messages: () => [...messages] };
}

/** The unexpected errors of the current test so far, as printed lines; clears them. */
export function takeUnexpectedErrors(): string[] {
  const lines = unexpected;
  unexpected = [];
  return lines;
}

function record(line: string) {
  messages.push(line);
  if (!expected) unexpected.push(line);
}

/** A log line as a message: `msg`, and the logged error's own message after a colon. */
function lineOf(fieldsOrMessage: unknown, msg: unknown): string {
  if (typeof fieldsOrMessage === "string") return fieldsOrMessage;
  const error = (fieldsOrMessage as { error?: SerializedError } | undefined)?.error;
  return error ? `${String(msg)}: ${error.message}` : String(msg);
}

beforeEach(() => {
  messages = [];
  unexpected = [];
  expected = false;
  spies = [
    vi
      .spyOn(logger, "error")
      .mockImplementation(((fieldsOrMessage: unknown, msg: unknown) => record(lineOf(fieldsOrMessage, msg))) as never),
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => record(format(...args))),
  ];
});

afterEach(() => {
  const logged = messages.length;
  const wasExpected = expected;
  for (const spy of spies) spy.mockRestore();
  spies = [];
  expected = false;
  const lines = takeUnexpectedErrors();
  if (lines.length > 0) throw new Error(`Unexpected error log (call expectErrorLog() in a test that expects one):\n${lines.join("\n")}`);
  if (wasExpected && logged === 0) throw new Error("expectErrorLog() was called but no error was logged");
});
