import { createContext, useContext } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { KeptMarkup, MarkupCacheContext } from "~/components/markup-cache";
import { createMarkupCache } from "./markup-cache.server";

const afterThisPage = () => new Promise((resolve) => setImmediate(resolve));

const Word = ({ word }: { word: string }) => (
  <p>
    {word} <strong>{word.length}</strong>
  </p>
);

describe("the markup cache", () => {
  it("answers nothing the first time, draws the part after the page, and answers its markup from then on", async () => {
    const cache = createMarkupCache();
    const draw = vi.fn(() => <Word word="grill" />);
    expect(cache.lookup("word:grill", draw)).toBeUndefined();
    expect(draw).not.toHaveBeenCalled();
    await afterThisPage();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(cache.lookup("word:grill", draw)).toBe(renderToString(<Word word="grill" />));
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it("draws a key asked for twice before it is kept once", async () => {
    const cache = createMarkupCache();
    const draw = vi.fn(() => <Word word="rub" />);
    cache.lookup("word:rub", draw);
    cache.lookup("word:rub", draw);
    await afterThisPage();
    expect(draw).toHaveBeenCalledTimes(1);
    expect(cache.size.entries).toBe(1);
  });

  it("lets the least recently used markup go once it holds its size", async () => {
    const sizeOf = (word: string) => word.length + renderToString(<Word word={word} />).length;
    const maxChars = sizeOf("one") + sizeOf("two") + sizeOf("three");
    const cache = createMarkupCache({ maxChars });
    for (const word of ["one", "two", "three"]) cache.lookup(word, () => <Word word={word} />);
    await afterThisPage();
    // Asked for again: "one" is now the most recently used.
    expect(cache.lookup("one", () => <Word word="one" />)).toBeDefined();
    cache.lookup("four", () => <Word word="four" />);
    await afterThisPage();
    expect(cache.size.chars).toBeLessThanOrEqual(maxChars);
    expect(cache.lookup("two", () => <Word word="two" />)).toBeUndefined();
    expect(cache.lookup("one", () => <Word word="one" />)).toBeDefined();
  });

  it("never tries again a part that cannot be drawn on its own: the page draws it every time", async () => {
    const cache = createMarkupCache();
    const draw = vi.fn(() => {
      throw new Error("needs its page");
    });
    cache.lookup("broken", draw);
    await afterThisPage();
    expect(cache.lookup("broken", draw)).toBeUndefined();
    await afterThisPage();
    expect(draw).toHaveBeenCalledTimes(1);
  });
});

const Unit = createContext("inches");
const Size = ({ value }: { value: number }) => (
  <span>
    {value} {useContext(Unit)}
  </span>
);

describe("KeptMarkup", () => {
  const page = (cache: ReturnType<typeof createMarkupCache> | null, value: number) =>
    renderToString(
      <MarkupCacheContext.Provider value={cache?.keptMarkup ?? null}>
        <Unit.Provider value="cm">
          <KeptMarkup
            as="div"
            attributes={{ className: "size" }}
            markupKey={() => `size:${value}`}
            alone={(children) => <Unit.Provider value="cm">{children}</Unit.Provider>}
          >
            <Size value={value} />
          </KeptMarkup>
        </Unit.Provider>
      </MarkupCacheContext.Provider>,
    );

  it("writes from the cache the markup the page draws without it, with what `alone` gives the part", async () => {
    const cache = createMarkupCache();
    const drawn = page(null, 30);
    expect(page(cache, 30)).toBe(drawn);
    await afterThisPage();
    expect(cache.size.entries).toBe(1);
    expect(page(cache, 30)).toBe(drawn);
    expect(drawn).toContain("<!-- -->cm</span>");
  });

  it("does not draw the part's component once its markup is kept", async () => {
    const cache = createMarkupCache();
    const Rows = vi.fn(() => <li>row</li>);
    const list = () =>
      renderToString(
        <MarkupCacheContext.Provider value={cache.keptMarkup}>
          <KeptMarkup as="ul" markupKey={() => "rows"}>
            <Rows />
          </KeptMarkup>
        </MarkupCacheContext.Provider>,
      );
    const drawn = list();
    await afterThisPage();
    expect(Rows).toHaveBeenCalledTimes(2); // in the page, then on its own
    expect(list()).toBe(drawn);
    expect(Rows).toHaveBeenCalledTimes(2);
  });

  it("asks for its key only where there is a cache (the server)", () => {
    const markupKey = vi.fn(() => "never");
    renderToString(
      <KeptMarkup as="ul" markupKey={markupKey}>
        <li>plain</li>
      </KeptMarkup>,
    );
    expect(markupKey).not.toHaveBeenCalled();
  });
});
