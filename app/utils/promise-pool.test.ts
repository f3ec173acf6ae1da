import { describe, expect, it } from "vitest";
import { mapWithLimit } from "./promise-pool";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("mapWithLimit", () => {
  it("runs every task, never more than the limit at once, and keeps the items' order", async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithLimit([5, 1, 4, 2, 3, 0, 6], 3, async (item, index) => {
      running += 1;
      most = Math.max(most, running);
      for (let i = 0; i < item; i++) await tick();
      running -= 1;
      return `${index}:${item}`;
    });
    expect(results).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3", "5:0", "6:6"]);
    expect(most).toBe(3);
  });

  it("uses all of the limit while items wait, and handles fewer items than the limit and none", async () => {
    let most = 0;
    let running = 0;
    await mapWithLimit(
      Array.from({ length: 20 }, (_, i) => i),
      5,
      async () => {
        most = Math.max(most, ++running);
        await tick();
        running -= 1;
      },
    );
    expect(most).toBe(5);
    expect(await mapWithLimit([1, 2], 10, async (item) => item * 2)).toEqual([2, 4]);
    expect(await mapWithLimit([], 5, async () => 1)).toEqual([]);
  });

  it("rejects with the first error and starts no task after it", async () => {
    const started: number[] = [];
    const result = mapWithLimit([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 1) throw new Error("provider away");
    });
    await expect(result).rejects.toThrow("provider away");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started.length).toBeLessThan(6);
  });
});
