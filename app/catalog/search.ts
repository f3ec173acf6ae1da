import { cleanText } from "~/utils/request-text";

/**
 * The spec's two searches. Results page: a product matches when every
 * space-separated word is contained in its title, case-insensitively.
 * Typeahead: at most 5 products, each query word scoring 5 when it equals a
 * whole word of the title and 3 when it is only part of one.
 */
export const TYPEAHEAD_LIMIT = 5;
const WHOLE_WORD_SCORE = 5;
const PARTIAL_SCORE = 3;

export function searchWords(text: string): string[] {
  return cleanText(text)
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

export function titleMatchesAllWords(title: string, words: readonly string[]): boolean {
  const lower = title.toLowerCase();
  return words.length > 0 && words.every((word) => lower.includes(word));
}

export function typeaheadScore(title: string, words: readonly string[]): number {
  const lower = title.toLowerCase();
  const titleWords = new Set(lower.split(/[^a-z0-9.+"'/]+/).filter(Boolean));
  let score = 0;
  for (const word of words) {
    if (titleWords.has(word)) score += WHOLE_WORD_SCORE;
    else if (lower.includes(word)) score += PARTIAL_SCORE;
  }
  return score;
}

/** Best first; equal scores keep their catalog order. */
export function rankTypeahead<T extends { title: string }>(
  candidates: readonly T[],
  words: readonly string[],
  limit = TYPEAHEAD_LIMIT,
): Array<{ product: T; score: number }> {
  return candidates
    .map((product, index) => ({ product, score: typeaheadScore(product.title, words), index }))
    .filter((result) => result.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map(({ product, score }) => ({ product, score }));
}

/** Escapes LIKE wildcards so a shopper's `%` or `_` is taken literally. */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
