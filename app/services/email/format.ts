const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Integer cents as US dollars, e.g. 123456 -> "$1,234.56". */
export function formatUsd(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Money must be integer cents, got ${cents}`);
  return usd.format(cents / 100);
}

/** The store's date style: long month, two-digit day, year ("November 02, 2026"). */
export function formatLongDate(date: Date, timeZone = "UTC"): string {
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "2-digit", timeZone });
}

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
