/**
 * Deterministic description formatting: the same job the language model is asked to do
 * (punctuation, bold key details, short paragraphs), done with rules. Output format:
 * paragraphs separated by a blank line, key details wrapped in `**...**`.
 * Formatting its own output gives the same text again.
 */
export function formatDescription(raw: string): string {
  const sentences = toPlainBlocks(raw)
    .flatMap(splitSentences)
    .map(tidySentence)
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
  return groupIntoParagraphs(sentences)
    .map((paragraph) => paragraph.map(boldKeyDetails).join(" "))
    .join("\n\n");
}

const LIST_MARKER = /^(?:[-*•·–—]+|\d{1,2}[.)])\s+/;
const SENTENCE_END = /[.!?]["'”’)\]]*$/;
const CONTINUES_ON_NEXT_LINE = /(?:,|\b(?:a|an|and|as|at|by|for|from|in|of|on|or|than|that|the|to|which|with))$/i;

/** Plain text blocks (each one or more sentences) from text that may carry HTML, markdown or list lines. */
function toPlainBlocks(raw: string): string[] {
  const lines = decodeEntities(raw.replace(/<br\s*\/?>|<\/(?:p|div|li|h[1-6]|tr)>/gi, "\n").replace(/<\/?[a-z][^<>]*>/gi, " "))
    .replace(/\*\*|__/g, "")
    .split(/\r?\n/)
    .map((line) =>
      collapseSpaces(line)
        .replace(/^#{1,6}\s+/, "")
        .replace(LIST_MARKER, ""),
    )
    .filter((line) => line !== "");

  // A line break ends a sentence, unless the line before plainly stops mid-sentence.
  const blocks: string[] = [];
  for (const line of lines) {
    const previous = blocks.at(-1);
    if (previous !== undefined && CONTINUES_ON_NEXT_LINE.test(previous)) {
      blocks[blocks.length - 1] = `${previous} ${line}`;
    } else {
      blocks.push(line);
    }
  }
  return blocks;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(
    /&(?:(amp|lt|gt|quot|apos|nbsp)|#(\d{1,6})|#x([\da-f]{1,6}));/gi,
    (entity, name?: string, decimal?: string, hex?: string) => {
      if (name) return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
      const codePoint = decimal ? Number(decimal) : Number.parseInt(hex ?? "", 16);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    },
  );
}

function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Abbreviations that never end a sentence. */
const CONTINUING_ABBREVIATIONS = new Set(["sq", "cu", "approx", "e.g", "i.e", "vs", "incl", "est"]);
/** Abbreviations that end a sentence only when a capitalized word follows ("30 in. W" and "30 in. deep" go on). */
const UNIT_ABBREVIATIONS = new Set(["in", "ft", "lb", "lbs", "oz", "gal", "qt", "no", "etc"]);

function splitSentences(block: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of block.matchAll(/[.!?]+["'”’)\]]*(?=\s+\S)/g)) {
    const end = match.index + match[0].length;
    if (endsSentence(match[0], wordBefore(block, match.index), wordAfter(block, end))) {
      sentences.push(block.slice(start, end));
      start = end;
    }
  }
  sentences.push(block.slice(start));
  return sentences.map((sentence) => sentence.trim()).filter(Boolean);
}

function endsSentence(punctuation: string, before: string, after: string): boolean {
  if (/[!?]/.test(punctuation)) return true;
  if (CONTINUING_ABBREVIATIONS.has(before) || /[a-z]\.[a-z]/.test(before)) return false;
  if (UNIT_ABBREVIATIONS.has(before)) return /^["'“‘([]?\p{Lu}/u.test(after) && !/^(?:[WDHL]\b|[x×]$)/i.test(after);
  return true;
}

// Blocks have single spaces between words, so neighbours are found by looking for the next space.
function wordBefore(block: string, index: number): string {
  return block.slice(block.lastIndexOf(" ", index - 1) + 1, index).toLowerCase();
}

function wordAfter(block: string, index: number): string {
  const start = index + 1;
  const end = block.indexOf(" ", start);
  return block.slice(start, end === -1 ? undefined : end);
}

function tidySentence(sentence: string): string {
  const trimmed = sentence.replace(LIST_MARKER, "").replace(/[\s,;:–—-]+$/, "");
  const punctuated = SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}.`;
  return punctuated.replace(/^(["'“‘([]*)(\p{Ll})/u, (_, opening: string, letter: string) => opening + letter.toUpperCase());
}

/** Paragraphs of three sentences, ending on two-plus-two rather than leaving one alone. */
function groupIntoParagraphs(sentences: string[]): string[][] {
  const paragraphs: string[][] = [];
  let index = 0;
  while (index < sentences.length) {
    const remaining = sentences.length - index;
    const size = remaining === 4 ? 2 : Math.min(3, remaining);
    paragraphs.push(sentences.slice(index, index + size));
    index += size;
  }
  return paragraphs;
}

const NUMBER = String.raw`(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[ -]\d+\/\d+)?|\d+\/\d+)`;
// A trailing abbreviation dot belongs to the unit only when the sentence goes on after it.
const ABBREVIATION_DOT = String.raw`(?:\.(?=.))?`;
const UNIT = [
  String.raw`["”″]|''`,
  String.raw`inch(?:es)?(?![a-z])`,
  String.raw`in(?=\.)${ABBREVIATION_DOT}`,
  String.raw`(?:feet|foot|pounds?|ounces?|gallons?|quarts?|watts?|volts?|amps?|kw|cm|mm)(?![a-z])`,
  String.raw`(?:ft|lbs?|oz|gal|qt)${ABBREVIATION_DOT}(?![a-z])`,
  String.raw`(?:sq|cu)\.?\s?(?:inches|inch|in|feet|ft)${ABBREVIATION_DOT}(?![a-z])`,
  String.raw`square\s(?:inches|feet)(?![a-z])`,
  String.raw`°\s?f?(?![a-z])|degrees(?:\sf(?:ahrenheit)?)?(?![a-z])`,
].join("|");
const MEASURE = String.raw`${NUMBER}(?:[\s-]?(?:${UNIT})(?:\s?[WDHL](?![a-z]))?)?`;
const MEASURE_WITH_UNIT = String.raw`${NUMBER}[\s-]?(?:${UNIT})(?:\s?[WDHL](?![a-z]))?`;
const BY = String.raw`\s?[x×]\s?`;
const NUMBER_START = String.raw`(?<![\w.,])`;
const WORD_START = String.raw`(?<![\w-])`;
const COUNT = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)`;
const BURNER_KIND = String.raw`(?:main|side|infrared|sear(?:ing)?|rotisserie|back|rear|cast|stainless|steel|brass|ceramic|tube|dual|independent|commercial|u-shaped|h-style)`;

const KEY_DETAIL_PATTERNS: RegExp[] = [
  // Measurements and dimension chains: 30" W x 24" D, 37 1/4 X 18", 670 sq. in., 40-inch.
  // Chains are bounded (length x width x height) so a long run of "1 x 1 x ..." stays linear.
  new RegExp(`${NUMBER_START}(?:${MEASURE}${BY}){0,3}${MEASURE_WITH_UNIT}(?:${BY}${MEASURE}){0,3}`, "gi"),
  new RegExp(String.raw`${NUMBER_START}${NUMBER}k?\s?btus?(?:\/hr?)?(?![a-z])`, "gi"),
  new RegExp(String.raw`${NUMBER_START}(?<!-)${COUNT}[\s-](?:${BURNER_KIND}[\s-]){0,2}burners?(?![a-z])`, "gi"),
  new RegExp(
    String.raw`${WORD_START}(?:natural[\s-]gas|liquid[\s-]propane|propane|charcoal|wood[\s-](?:fired|burning)|(?:hardwood\s|wood\s)?pellets?|dual[\s-]fuel)(?![a-z])`,
    "gi",
  ),
  new RegExp(String.raw`${WORD_START}(?:LP|NG)(?![\w-])`, "g"),
  new RegExp(
    String.raw`${WORD_START}(?:(?:304|316|430|201)(?:\s(?:grade|marine[\s-]grade|cast|brushed))*\s?stainless(?:[\s-]steel)?|(?:(?:marine[\s-]grade|cast|brushed|solid)\s)?stainless[\s-]steel)(?![a-z])`,
    "gi",
  ),
  new RegExp(
    String.raw`${WORD_START}(?:cast[\s-](?:iron|aluminum|aluminium|brass)|solid\s(?:brass|teak|aluminum)|powder[\s-]coated\s(?:steel|aluminum)|porcelain[\s-](?:enamel(?:ed)?|coated)(?:\s(?:cast\s)?(?:iron|steel))?|(?:grade[\s-]a\s)?teak|gfrc|glass[\s-]fiber[\s-]reinforced\s(?:concrete|cement)|marine[\s-]grade\s(?:polymer|vinyl)|tempered\sglass)(?![a-z])`,
    "gi",
  ),
  new RegExp(String.raw`${WORD_START}(?:limited\s)?(?:lifetime|\d+[\s-]year)(?:\slimited)?\swarranty(?![a-z])`, "gi"),
  new RegExp(String.raw`${WORD_START}made\sin\s(?:the\s)?(?:usa|america|united\sstates)(?![a-z])`, "gi"),
];

interface Span {
  start: number;
  end: number;
}

function boldKeyDetails(sentence: string): string {
  const spans = mergeSpans(
    sentence,
    KEY_DETAIL_PATTERNS.flatMap((pattern) =>
      [...sentence.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length })),
    ),
  );
  let result = "";
  let cursor = 0;
  for (const { start, end } of spans) {
    result += `${sentence.slice(cursor, start)}**${sentence.slice(start, end)}**`;
    cursor = end;
  }
  return result + sentence.slice(cursor);
}

/** Overlapping spans become one; so do details side by side ("40-inch 5-burner"), which read better as one bold run. */
function mergeSpans(sentence: string, spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    const touches = last && (span.start <= last.end || (span.start === last.end + 1 && sentence[last.end] === " "));
    if (last && touches) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
