import { describe, expect, it } from "vitest";
import { formatDescription } from "./format-description";

const paragraphsOf = (text: string) => text.split("\n\n");
const sentencesOf = (paragraph: string) => paragraph.split(/(?<=[.!?])\s+(?=\*{0,2}[A-Z0-9])/);

describe("formatDescription", () => {
  it("returns an empty string for empty input", () => {
    expect(formatDescription("")).toBe("");
    expect(formatDescription(" \n\t\n ")).toBe("");
  });

  it("normalizes whitespace", () => {
    expect(formatDescription("  A   roomy\tcart.   It rolls   well.  ")).toBe("A roomy cart. It rolls well.");
  });

  it("ends sentences with punctuation and starts them with a capital", () => {
    expect(formatDescription("great for parties\neasy to clean")).toBe("Great for parties. Easy to clean.");
    expect(formatDescription("is it sturdy? yes it is! the frame is welded")).toBe("Is it sturdy? Yes it is! The frame is welded.");
    expect(formatDescription("Includes a cover, a light and a tray;")).toBe("Includes a cover, a light and a tray.");
  });

  it("keeps a sentence whole when a line breaks in the middle of it", () => {
    expect(formatDescription("The cabinet is built with\nsoft-close doors and\na drawer")).toBe(
      "The cabinet is built with soft-close doors and a drawer.",
    );
  });

  it("groups sentences into paragraphs of two or three, separated by a blank line", () => {
    const sizes = (count: number) =>
      paragraphsOf(formatDescription(Array.from({ length: count }, (_, i) => `Sentence ${i + 1}.`).join(" "))).map(
        (paragraph) => sentencesOf(paragraph).length,
      );
    expect(sizes(1)).toEqual([1]);
    expect(sizes(3)).toEqual([3]);
    expect(sizes(4)).toEqual([2, 2]);
    expect(sizes(5)).toEqual([3, 2]);
    expect(sizes(7)).toEqual([3, 2, 2]);
    expect(sizes(9)).toEqual([3, 3, 3]);
  });

  it("bolds measurements, BTU, burner counts, fuel types and materials", () => {
    const text = formatDescription(
      'This 40-inch grill has 5 burners, 70,000 BTUs and runs on natural gas. The body is 304 Stainless Steel with cast iron grates. Cutout: 38 3/8" W x 21 1/4" D x 8 1/2" H',
    );
    for (const detail of [
      "**40-inch**",
      "**5 burners**",
      "**70,000 BTUs**",
      "**natural gas**",
      "**304 Stainless Steel**",
      "**cast iron**",
      '**38 3/8" W x 21 1/4" D x 8 1/2" H**',
    ]) {
      expect(text).toContain(detail);
    }
  });

  it("bolds more kinds of key details", () => {
    const text = formatDescription(
      "It offers 670 sq. in. of cooking space and weighs 120 lbs. Two infrared burners reach 700 degrees F. It takes LP or NG, not charcoal. Lifetime warranty. Made in the USA.",
    );
    for (const detail of [
      "**670 sq. in.**",
      "**120 lbs**",
      "**Two infrared burners**",
      "**700 degrees F**",
      "**LP**",
      "**NG**",
      "**charcoal**",
      "**Lifetime warranty**",
      "**Made in the USA**",
    ]) {
      expect(text).toContain(detail);
    }
  });

  it("does not bold plain numbers, model codes or words that merely contain a unit", () => {
    const text = formatDescription("Model BLZ-5LTE3-NG seats 4 people in the garden. It is ideal for 2024 and beyond.");
    expect(text).not.toContain("**");
    expect(formatDescription("Sold 60,000 burners and 1.5 burners")).toBe("Sold 60,000 burners and 1.5 burners.");
  });

  it("keeps unit abbreviations from ending a sentence early", () => {
    const text = formatDescription("The top is 30 in. W x 24 in. D and weighs approx. 40 lb. It ships fast.");
    expect(text).toBe("The top is **30 in. W x 24 in. D** and weighs approx. **40 lb**. It ships fast.");
  });

  it("cleans HTML, entities, markdown bold and list markers out of the input", () => {
    expect(
      formatDescription("<p>Solid teak &amp; <b>marine-grade polymer</b></p><ul><li>weighs 45 lbs</li><li>fits 4 people</li></ul>"),
    ).toBe("**Solid teak** & **marine-grade polymer**. Weighs **45 lbs**. Fits 4 people.");
    expect(formatDescription("## Features\n- **sturdy** frame\n* 2 year warranty\n1. easy assembly")).toBe(
      "Features. Sturdy frame.\n\n**2 year warranty**. Easy assembly.",
    );
  });

  it("decodes numeric entities", () => {
    expect(formatDescription("It&#8217;s a 24&#x22; grill")).toBe('It’s a **24"** grill.');
  });

  it("ends a sentence after a unit when a new one plainly starts, even with a one-letter word", () => {
    expect(formatDescription("Width is 30 in. A cover is included.")).toBe("Width is **30 in**. A cover is included.");
  });

  it("gives the same text when run on its own output", () => {
    const inputs = [
      "the blaze 40-inch 5-burner natural gas grill is made of 304 cast stainless steel\nit delivers 70,000 BTUs across 670 sq. in.\n- lifetime warranty\n- made in the USA",
      "Wow! Is it good? yes. one. two. three. four. five.",
      'Cutout 38 3/8" W x 21 1/4" D. Weighs approx. 120 lbs. Uses propane',
      "Width 30 in\nA great grill\nheats to 600 °F\n<p>It&#8217;s 4-burner, cast aluminum &amp; teak</p>",
    ];
    for (const input of inputs) {
      const once = formatDescription(input);
      expect(formatDescription(once)).toBe(once);
    }
  });
});
