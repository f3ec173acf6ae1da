import { describe, expect, it } from "vitest";
import { RETURN_REASONS } from "~/db/schema";
import { REASON_CHOICES } from "./page-data";

describe("the return form's reasons", () => {
  it("are the schema's, in its order", () => {
    expect(REASON_CHOICES).toEqual(RETURN_REASONS);
  });
});
