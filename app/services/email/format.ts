/**
 * Money and dates come from the app's one formatting module, so an email shows
 * exactly what the pages show. Emails refuse fractional cents (formatUsdStrict).
 */
export { formatUsdStrict as formatUsd, formatLongDate } from "~/utils/format";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** Escapes text and keeps its line breaks. */
export function escapeMultilineHtml(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, "<br>\n");
}

/** Only http(s) links go into an href: a template must never emit `javascript:` and friends. */
export function safeHttpUrl(url: string): string {
  const protocol = new URL(url).protocol;
  if (protocol !== "http:" && protocol !== "https:") throw new Error(`Refusing a non-http link: ${url}`);
  return url;
}

/** One line, no control characters: subjects are built from visitor input. */
export function singleLine(value: string, maxLength = 120): string {
  const flattened = value.replace(/[\s\p{Cc}]+/gu, " ").trim();
  return flattened.length > maxLength ? `${flattened.slice(0, maxLength - 1)}…` : flattened;
}

/** The name an email greets: the customer's first name on one line (a line break typed at checkout starts none), or "there". */
export function greetingName(firstName: string): string {
  return singleLine(firstName, 60) || "there";
}
