/**
 * Splits plain text into text and http(s) links, so a plain-text email can be
 * shown with clickable links. Trailing punctuation stays outside the link.
 */
export type TextPart = { type: "text"; value: string } | { type: "link"; value: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
const TRAILING = /[.,;:!?)\]}]+$/;

export function linkifyText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    let url = match[0];
    const trailing = url.match(TRAILING)?.[0] ?? "";
    // Keep a closing parenthesis that belongs to the URL, e.g. wiki links "(...)".
    const keepParen = trailing.startsWith(")") && url.slice(0, -trailing.length).includes("(");
    if (trailing && !keepParen) url = url.slice(0, -trailing.length);
    if (!isHttpUrl(url)) continue;
    if (start > last) parts.push({ type: "text", value: text.slice(last, start) });
    parts.push({ type: "link", value: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ type: "text", value: text.slice(last) });
  return parts;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
