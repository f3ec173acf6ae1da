import type { Clock } from "~/utils/clock";

/** A clock a test sets and moves; its pauses return at once and are recorded in `slept`. */
export interface TestClock extends Clock {
  /** Reads the time from `source` from now on (a variable the test moves), as epoch milliseconds or a date. */
  follow(source: () => number | Date): void;
  /** The pauses asked for, in order (the test may empty it). */
  readonly slept: number[];
}

export function testClock(): TestClock {
  let source: () => number | Date = () => Date.now();
  const slept: number[] = [];
  return {
    now: () => new Date(source()),
    sleep: async (ms) => void slept.push(ms),
    follow: (next) => void (source = next),
    slept,
  };
}
