import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUIET_INTERVAL_MS, quietCounter } from "./quiet-log";

describe("quietCounter", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("logs the first event of a kind at once and how many followed once the interval has passed", () => {
    const warn = vi.fn();
    const refusals = quietCounter(warn);
    for (let event = 0; event < 60; event++) refusals.count("forged", { limit: 30 });
    refusals.count("other");
    expect(warn.mock.calls).toEqual([
      ["forged", { limit: 30 }],
      ["other", {}],
    ]);
    vi.advanceTimersByTime(QUIET_INTERVAL_MS);
    expect(warn.mock.calls.slice(2)).toEqual([["forged", { limit: 30, moreInLast10s: 59 }]]);
  });

  it("starts a new burst after a quiet interval", () => {
    const warn = vi.fn();
    const refusals = quietCounter(warn);
    refusals.count("forged");
    vi.advanceTimersByTime(QUIET_INTERVAL_MS);
    refusals.count("forged");
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
