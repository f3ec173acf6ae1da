import { describe, expect, it } from "vitest";
import { likePattern, rankTypeahead, searchWords, titleMatchesAllWords, typeaheadScore } from "./search";

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
  });
  it("ranks at most five, best first, ties in catalog order", () => {
    const items = ["Gas Grill A", "Grilling Tool", "Gas Grill B", "Grill", "Grille", "Grilled", "Fire Pit"].map((t) => ({ title: t }));
    const ranked = rankTypeahead(items, ["grill"]);
    expect(ranked).toHaveLength(5);
    expect(ranked.map((r) => r.product.title).slice(0, 3)).toEqual(["Gas Grill A", "Gas Grill B", "Grill"]);
  });
  it("escapes LIKE wildcards", () => {
    expect(likePattern("100%_off")).toBe("%100\\%\\_off%");
  });
});
