/**
 * The time as the store's own code reads it: one clock, built with the runtime (`context.store.clock`)
 * and handed to what decides by the time (staff sessions' idle expiry, the sign-in lock-out and its
 * pause, the rate limits). A test hands in its own and moves it (tests/support/test-clock.ts) instead of
 * replacing a module's function.
 */
export interface Clock {
  now(): Date;
  /** Waits `ms` (the sign-in lock-out's pause). */
  sleep(ms: number): Promise<void>;
}

/** The machine's clock: the one process-wide value the runtime is built with. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
