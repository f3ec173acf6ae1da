import { describe, expect, it } from "vitest";
import { isOldDataRequest } from "./guards";

describe("isOldDataRequest", () => {
  it("finds a _data parameter, with or without a value, anywhere in the query", () => {
    expect(isOldDataRequest("/?_data=root")).toBe(true);
    expect(isOldDataRequest("/cart?x=1&_data=routes%2Fcart")).toBe(true);
    expect(isOldDataRequest("/cart?_data")).toBe(true);
  });

  it("leaves single-fetch and other requests alone", () => {
    expect(isOldDataRequest("/cart.data?_routes=root")).toBe(false);
    expect(isOldDataRequest("/finding/_data")).toBe(false);
    expect(isOldDataRequest("/products/all/all?q=_data")).toBe(false);
    expect(isOldDataRequest("/")).toBe(false);
  });
});
