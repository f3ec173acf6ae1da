import { describe, expect, it } from "vitest";
import { renderFormattedText } from "./render-formatted-text";

describe("renderFormattedText", () => {
  it("splits paragraphs on blank lines and marks bold runs", () => {
    expect(renderFormattedText("A **36-inch** grill.\n\nBurns **propane** well.")).toEqual({
      paragraphs: [
        [
          { text: "A ", bold: false },
          { text: "36-inch", bold: true },
          { text: " grill.", bold: false },
        ],
        [
          { text: "Burns ", bold: false },
          { text: "propane", bold: true },
          { text: " well.", bold: false },
        ],
      ],
    });
  });

  it("joins single line breaks and drops empty paragraphs", () => {
    expect(renderFormattedText("\n\nOne\nline.\r\n\r\n\r\n")).toEqual({ paragraphs: [[{ text: "One line.", bold: false }]] });
    expect(renderFormattedText("   ")).toEqual({ paragraphs: [] });
  });

  it("keeps an unpaired marker as literal text", () => {
    expect(renderFormattedText("Use ** for bold")).toEqual({ paragraphs: [[{ text: "Use ** for bold", bold: false }]] });
    expect(renderFormattedText("**a** and **b")).toEqual({
      paragraphs: [
        [
          { text: "a", bold: true },
          { text: " and **b", bold: false },
        ],
      ],
    });
  });

  it("leaves markup as text for React to escape", () => {
    expect(renderFormattedText("<img src=x onerror=alert(1)> **<b>**")).toEqual({
      paragraphs: [
        [
          { text: "<img src=x onerror=alert(1)> ", bold: false },
          { text: "<b>", bold: true },
        ],
      ],
    });
  });

  it("ignores empty bold markers", () => {
    expect(renderFormattedText("a****b")).toEqual({ paragraphs: [[{ text: "ab", bold: false }]] });
  });
});
