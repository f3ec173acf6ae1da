import { describe, expect, it } from "vitest";
import { describeError, UNEXPECTED_ERROR_TITLE } from "./ErrorPage";

const response = (status: number, data: unknown = "") => ({ status, statusText: "", internal: false, data });

describe("describeError", () => {
  it("has a view for each status the store answers with", () => {
    expect(describeError(response(404)).title).toBe("Page not found");
    expect(describeError(response(405, "Error: You made a POST request to ...")).title).toBe("This page can't do that");
    expect(describeError(response(405, "Error: You made a POST request to ...")).message).not.toContain("POST");
    expect(describeError(response(429)).title).toBe("Too many requests");
    expect(describeError(response(503)).title).toBe("We'll be right back");
  });

  it("shows the readable message a refused form carries", () => {
    expect(describeError(response(413, "That form was larger than 64 KB."))).toMatchObject({
      status: 413,
      message: "That form was larger than 64 KB.",
    });
    expect(describeError(response(400, "This page does not know the action “x”.")).message).toBe("This page does not know the action “x”.");
  });

  it("keeps the spec's text for a real failure and lets a route word a status its own way", () => {
    expect(describeError(new Error("boom"))).toMatchObject({ status: null, title: UNEXPECTED_ERROR_TITLE });
    expect(describeError(response(500)).title).toBe("Something went wrong");
    expect(describeError(response(404), { 404: { title: "Product not found", message: "Gone." } }).title).toBe("Product not found");
  });
});
