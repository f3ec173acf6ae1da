import { createElement, Fragment, type ReactElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { KeptMarkupProps } from "~/components/markup-cache";

/** About 3,000 product cards: a few MB, the catalogue's cards in the lists shoppers open most. */
const DEFAULT_MAX_CHARS = 6 * 1024 * 1024;

export interface MarkupCache {
  /**
   * The inner HTML `draw()` gave for `key`, or undefined the first time: the caller renders it as usual,
   * and the cache draws it on its own once this page is written.
   */
  lookup(key: string, draw: () => ReactElement): string | undefined;
  /** `KeptMarkup` as the server draws it: the element with its children's markup from the cache once kept. */
  keptMarkup(props: KeptMarkupProps): ReactElement;
  /** Entries kept and their size, for tests. */
  readonly size: { entries: number; chars: number };
}

/**
 * Markup drawn once and written as it is afterwards (decision 031): a list page draws 100 cards that
 * are the same for every shopper until the catalogue or the stock changes them, and their keys say
 * all of that. A key seen for the first time is drawn in the page as usual, then once more on its own
 * after the page (never inside a render: React's server renderer keeps its state in module variables),
 * and kept. Least recently used entries go first once the cache holds `maxChars` of keys and markup.
 */
export function createMarkupCache({ maxChars = DEFAULT_MAX_CHARS }: { maxChars?: number } = {}): MarkupCache {
  // null: the part could not be drawn on its own, and is drawn in its page every time, as without the cache.
  const entries = new Map<string, string | null>();
  const waiting = new Map<string, () => ReactElement>();
  let chars = 0;
  const sizeOf = (key: string, html: string | null) => key.length + (html?.length ?? 0);

  const keep = (key: string, html: string | null) => {
    entries.set(key, html);
    chars += sizeOf(key, html);
    for (const [oldest, markup] of entries) {
      if (chars <= maxChars) break;
      entries.delete(oldest);
      chars -= sizeOf(oldest, markup);
    }
  };

  const drawWaiting = () => {
    for (const [key, draw] of waiting) {
      if (entries.has(key)) continue;
      let html: string | null = null;
      try {
        html = renderToString(draw());
      } catch {
        // kept as null: not tried again
      }
      keep(key, html);
    }
    waiting.clear();
  };

  const lookup = (key: string, draw: () => ReactElement) => {
    const html = entries.get(key);
    if (html !== undefined) {
      entries.delete(key);
      entries.set(key, html);
      return html ?? undefined;
    }
    if (waiting.size === 0) setImmediate(drawWaiting);
    waiting.set(key, draw);
    return undefined;
  };

  const alone = (children: ReactNode) => createElement(Fragment, null, children);

  return {
    lookup,
    keptMarkup({ as, attributes, markupKey, children, alone: around = alone }) {
      const html = lookup(markupKey(), () => around(children));
      return html === undefined
        ? createElement(as, attributes, children)
        : createElement(as, { ...attributes, dangerouslySetInnerHTML: { __html: html } });
    },
    get size() {
      return { entries: entries.size, chars };
    },
  };
}
