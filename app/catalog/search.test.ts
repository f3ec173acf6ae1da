import { describe, expect, it } from "vitest";
import { likePattern, rankingPatterns, rankingTokens, searchWords, titleMatchesAllWords, typeaheadScore } from "./search";

describe("search rules", () => {
  const title = "Blaze Premium LTE+ 40-Inch 5-Burner Built-In Natural Gas Grill";
  it("matches when every space-separated word is in the title, in any case", () => {
    expect(titleMatchesAllWords(title, searchWords("blaze GAS  grill"))).toBe(true);
    expect(titleMatchesAllWords(title, searchWords("blaze propane"))).toBe(false);
    expect(titleMatchesAllWords(title, searchWords(""))).toBe(false);
  });
  it("scores 5 per whole-word match and 3 per partial match", () => {
    expect(typeaheadScore(title, ["grill"])).toBe(5);
    expect(typeaheadScore(title, ["gril"])).toBe(3);
    expect(typeaheadScore(title, ["blaze", "gri"])).toBe(8);
    expect(typeaheadScore(title, ["kamado"])).toBe(0);
    expect(typeaheadScore(title, ["40-inch"])).toBe(5);
  });
  it("reads words for ranking as the stored title_words does: letters and digits only", () => {
    expect(rankingTokens("Blaze 36-Inch  Grill/Griddle")).toEqual(["blaze", "36", "inch", "grill", "griddle"]);
    expect(rankingTokens("--- ...")).toEqual([]);
  });
  it("ranks by each query word whole and by the phrase; the phrase's last word is a prefix while typing", () => {
    expect(rankingPatterns(searchWords("Grill cover"), { lastWordIsPrefix: false })).toEqual({
      phrase: "% grill cover %",
      wholeWords: ["% grill %", "% cover %"],
    });
    expect(rankingPatterns(["grill", "co"], { lastWordIsPrefix: true })).toEqual({ phrase: "% grill co%", wholeWords: ["% grill %", "% co %"] });
    expect(rankingPatterns(["36-inch", "grill"], { lastWordIsPrefix: false })?.wholeWords).toEqual(["% 36 inch %", "% grill %"]);
    expect(rankingPatterns(["%_"], { lastWordIsPrefix: false })).toBeNull();
  });
  it("escapes LIKE wildcards", () => {
    expect(likePattern("100%_off")).toBe("%100\\%\\_off%");
  });
});
