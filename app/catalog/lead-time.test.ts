import { describe, expect, it } from "vitest";
import { leadTime } from "./lead-time";

describe("lead time (one rule for card and detail)", () => {
  it("says 4 - 6 weeks for The Outdoor Plus on the card and on the detail page", () => {
    expect(leadTime("the_outdoor_plus")).toEqual({ card: "Leaves Warehouse: 4 - 6 Weeks", detail: "Leaves warehouse in 4 - 6 weeks" });
  });

  it("says 24 hours for every other brand and the seasoning", () => {
    for (const brand of ["blaze", "breeo", "custom_product"]) {
      expect(leadTime(brand)).toEqual({ card: "Leaves Warehouse: 24 Hrs", detail: "Leaves warehouse within 24 Hours" });
    }
  });
});
