import { importOnce } from "./import-once.server";

/** sharp (libvips) loads with the first image it works on: a store that never resizes or re-encodes never carries it. */
export const loadSharp = importOnce(async () => {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
});

/** Images worked on at once in this process (product photos and customers' uploads together): the rest wait their turn. */
const IMAGES_AT_ONCE = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` once fewer than IMAGES_AT_ONCE images are being worked on, first come first served. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= IMAGES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
