import { describe, expect, it } from "vitest";
import {
  addToCompare,
  compareRows,
  comparePath,
  parseCompareItems,
  removeFromCompare,
  replaceInCompare,
  sanitizeCompareList,
} from "./compare";

describe("the compare list", () => {
  it("keeps at most four distinct product keys", () => {
    expect(sanitizeCompareList(["blaze-1", "blaze-1", "nope", 3, "aog-2", "coyote-3", "napoleon-4", "primo-5"])).toEqual([
      "blaze-1",
      "aog-2",
      "coyote-3",
      "napoleon-4",
    ]);
    expect(sanitizeCompareList("blaze-1")).toEqual([]);
  });

  it("reads and writes the shareable address", () => {
    expect(parseCompareItems(new URLSearchParams("items=blaze-1,aog-2"))).toEqual(["blaze-1", "aog-2"]);
    expect(parseCompareItems(new URLSearchParams(""))).toBeNull();
    expect(comparePath(["blaze-1", "aog-2"], { only: "differences" })).toBe("/compare?items=blaze-1,aog-2&only=differences");
  });

  it("asks which to replace when a fifth is added", () => {
    const full = ["blaze-1", "aog-2", "coyote-3", "napoleon-4"];
    expect(addToCompare(full.slice(0, 3), "blaze-1")).toEqual({ ok: true, list: full.slice(0, 3) });
    expect(addToCompare(full, "primo-5")).toEqual({ ok: false, full: true, list: full, adding: "primo-5" });
    expect(replaceInCompare(full, "aog-2", "primo-5")).toEqual(["blaze-1", "primo-5", "coyote-3", "napoleon-4"]);
    expect(removeFromCompare(full, "coyote-3")).toEqual(["blaze-1", "aog-2", "napoleon-4"]);
  });
});

describe("the compare table", () => {
  it("puts the important rows first, keeps every spec any product has, and marks differences", () => {
    const rows = compareRows([
      { specifications: [{ Material: "Steel" }, { "Fuel Type": "Propane" }, { Width: '32"' }, { Details: "x" }] },
      { specifications: [{ Width: '32"' }, { "Fuel Type": "Natural Gas" }, { Lights: "Yes" }] },
    ]);
    expect(rows.map((row) => row.name)).toEqual(["Fuel Type", "Width", "Material", "Lights"]);
    expect(rows.find((row) => row.name === "Width")).toEqual({ name: "Width", values: ['32"', '32"'], differs: false });
    expect(rows.find((row) => row.name === "Lights")).toEqual({ name: "Lights", values: [null, "Yes"], differs: true });
    expect(rows.find((row) => row.name === "Fuel Type")?.differs).toBe(true);
  });
});
