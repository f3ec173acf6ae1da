import { afterEach, describe, expect, it, vi } from "vitest";
import { startRetryLoop } from "./deliveries.server";

describe("startRetryLoop", () => {
  afterEach(() => vi.useRealTimers());

  it("runs a pass every interval, never two at once, and survives a failing pass", async () => {
    vi.useFakeTimers();
    const logger = { warn: vi.fn() };
    let release: () => void = () => {};
    let calls = 0;
    const run = vi.fn(() => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error("database restarting"));
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const loop = startRetryLoop(run, { intervalMs: 1000, logger });

    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith("Email retry pass failed: database restarting");

    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    // The second pass is still running: the timer does not start a third.
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(3);

    loop.stop();
    release();
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it("logs a pass that throws before it starts, instead of crashing the process", async () => {
    vi.useFakeTimers();
    const logger = { warn: vi.fn() };
    const loop = startRetryLoop(
      () => {
        throw new Error("no sender");
      },
      { intervalMs: 1000, logger },
    );
    await loop.runOnce();
    expect(logger.warn).toHaveBeenCalledWith("Email retry pass failed: no sender");
    loop.stop();
  });
});
