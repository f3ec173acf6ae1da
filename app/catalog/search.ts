import { cleanText } from "~/utils/request-text";

/**
 * The spec's two searches. Results page: a product matches when every
 * space-separated word is contained in its title, case-insensitively (or its
 * model number is one of the words). Typeahead: at most 5 products, each
 * carrying the spec's score: 5 per query word that equals a whole word of the
 * title, 3 per word that is only part of one. Both list the best matches first
 * (RANKS below).
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

/** Whether a query word is a whole word of the title (a word such as "36-inch" may span two: "36-Inch"). */
function isWholeWordOf(titleTokens: string, word: string): boolean {
  const tokens = rankingTokens(word);
  return tokens.length > 0 && titleTokens.includes(` ${tokens.join(" ")} `);
}

export function typeaheadScore(title: string, words: readonly string[]): number {
  const lower = title.toLowerCase();
  const titleTokens = ` ${rankingTokens(title).join(" ")} `;
  let score = 0;
  for (const word of words) {
    if (isWholeWordOf(titleTokens, word)) score += WHOLE_WORD_SCORE;
    else if (lower.includes(word)) score += PARTIAL_SCORE;
  }
  return score;
}

/**
 * How results are ranked, best first (the SQL is in queries.server.ts, on `products.title_words`):
 *  1. a product whose model number is one of the words ("ALXE-42SZ");
 *  2. more of the words whole in the title: the spec's score, 5 per whole word and 3 per word only
 *     contained ("grill cover" scores 10 on "Blaze Grill Cover …", 8 on "American Made Grills … Cover");
 *  3. the words as one phrase, in order ("Grill Cover" before "Grill … Cover");
 *  4. the closer match: the shorter title, of which the query is the larger share (what pg_trgm's
 *     similarity measures for a title that contains the query, without computing it for every row);
 *  5. catalog order.
 * While typing, the phrase's last word counts as the start of a word ("grill co").
 */

/** The words as `products.title_words` holds them: lower case, split at anything but letters and digits ("36-Inch" is 36, inch). */
export function rankingTokens(text: string): string[] {
  return cleanText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

export interface RankingPatterns {
  /** The whole query as a phrase of whole words. */
  phrase: string;
  /** One per query word: the word whole (its tokens in a row, for a word such as "36-inch"). */
  wholeWords: string[];
}

/**
 * LIKE patterns over `title_words` (which has a space at each end). Tokens are letters and digits
 * only, so they hold no LIKE wildcard. Null when the query has no letter or digit at all.
 */
export function rankingPatterns(words: readonly string[], { lastWordIsPrefix }: { lastWordIsPrefix: boolean }): RankingPatterns | null {
  const tokens = rankingTokens(words.join(" "));
  if (tokens.length === 0) return null;
  return {
    phrase: `% ${tokens.join(" ")}${lastWordIsPrefix ? "" : " "}%`,
    wholeWords: words
      .map((word) => rankingTokens(word).join(" "))
      .filter((joined) => joined !== "")
      .map((joined) => `% ${joined} %`),
  };
}

/** Escapes LIKE wildcards so a shopper's `%` or `_` is taken literally. */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
