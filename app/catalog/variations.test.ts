import { describe, expect, it } from "vitest";
import type { Specification } from "./product";
import { compareSpecifications, modelPrefix } from "./variations";

describe("modelPrefix", () => {
  it("uses the first one or two dash segments per brand", () => {
    expect(modelPrefix("blaze", "BLZ-5LTE3-NG")).toBe("BLZ-5LTE3");
    expect(modelPrefix("fire_magic", "E790I-9E1N")).toBe("E790I");
    expect(modelPrefix("aog", "24NGT")).toBe("24NGT");
  });
  it("has none for brands without variations or a blank model", () => {
    expect(modelPrefix("primo", "PGCXLH")).toBeNull();
    expect(modelPrefix("blaze", "  ")).toBeNull();
  });
});

describe("compareSpecifications", () => {
  const current: { specifications: Specification[] } = {
    specifications: [{ "Fuel Type": "Natural Gas" }, { Width: "39.5\"" }, { Class: "Premium" }, { Thermometer: "Analog" }],
  };
  it("lists differing fields, ignoring the listed ones and fields missing on the second product", () => {
    const other: { model: string; specifications: Specification[] } = { model: "BLZ-5LTE3-LP", specifications: [{ "Fuel Type": "Propane" }, { Width: "40\"" }, { Class: "Premium" }] };
    expect(compareSpecifications(current, other)).toEqual({
      model: "BLZ-5LTE3-LP",
      differences: [{ newSpecification: "Fuel Type", newValue: "Propane" }],
    });
  });
  it("reports N/A for an empty value and null for a missing model", () => {
    const other = { model: "X-1", specifications: [{ "Fuel Type": "" }] };
    expect(compareSpecifications(current, other)?.differences).toEqual([{ newSpecification: "Fuel Type", newValue: "N/A" }]);
    expect(compareSpecifications(current, { model: "", specifications: [] })).toBeNull();
  });
});
