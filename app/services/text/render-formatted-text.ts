export interface TextSegment {
  text: string;
  bold: boolean;
}

export interface FormattedText {
  paragraphs: TextSegment[][];
}

/**
 * Turns the generator's format (`**bold**`, paragraphs split by a blank line) into plain
 * segments that React can render as text, so no HTML from a model ever reaches the page.
 * An unpaired `**` is kept as literal text.
 */
export function renderFormattedText(text: string): FormattedText {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.replace(/\s+/g, " ").trim())
    .filter((paragraph) => paragraph !== "")
    .map(toSegments)
    .filter((segments) => segments.length > 0);
  return { paragraphs };
}

function toSegments(paragraph: string): TextSegment[] {
  const parts = paragraph.split("**");
  // An even number of parts means one `**` has no partner: glue the last two parts back together.
  if (parts.length % 2 === 0) {
    const unpaired = parts.pop() ?? "";
    parts[parts.length - 1] += `**${unpaired}`;
  }
  const segments: TextSegment[] = [];
  parts.forEach((part, index) => appendSegment(segments, { text: part, bold: index % 2 === 1 && part.trim() !== "" }));
  return segments;
}

function appendSegment(segments: TextSegment[], segment: TextSegment) {
  if (segment.text === "") return;
  const last = segments.at(-1);
  if (last && last.bold === segment.bold) last.text += segment.text;
  else segments.push(segment);
}
