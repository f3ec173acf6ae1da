import { describe, expect, it } from "vitest";
import { pageSlots } from "./pagination";

describe("the page buttons of a list", () => {
  it("shows every page of a short list", () => {
    expect(pageSlots(1, 1)).toEqual([1]);
    expect(pageSlots(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageSlots(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("keeps the first, the last and two on each side of the current page, with gaps between", () => {
    expect(pageSlots(1, 26)).toEqual([1, 2, 3, "gap", 26]);
    expect(pageSlots(10, 26)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 26]);
    expect(pageSlots(26, 26)).toEqual([1, "gap", 24, 25, 26]);
    expect(pageSlots(500, 1000)).toEqual([1, "gap", 498, 499, 500, 501, 502, "gap", 1000]);
  });

  it("shows a single left-out page instead of a gap", () => {
    expect(pageSlots(5, 26)).toEqual([1, 2, 3, 4, 5, 6, 7, "gap", 26]);
    expect(pageSlots(4, 26)).toEqual([1, 2, 3, 4, 5, 6, "gap", 26]);
  });

  it("treats a page out of range as the nearest one", () => {
    expect(pageSlots(99, 3)).toEqual([1, 2, 3]);
    expect(pageSlots(0, 10)).toEqual([1, 2, 3, "gap", 10]);
  });
});
