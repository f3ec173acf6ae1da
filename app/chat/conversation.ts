/**
 * The chat's message model, shared by the server and the page. A message is
 * what the spec calls a Chat message (sender, text, timestamp) plus the links
 * and quick options that belong to it.
 */

export type Sender = "user" | "server";

export interface ChatLink {
  label: string;
  href: string;
}

export interface ChatOption {
  label: string;
  /** What the option posts: `products`, `contact`, `delivery`, `brand:{key}` or `product:{brand}-{Id}`. */
  value: string;
}

export interface ChatMessage {
  sender: Sender;
  text: string;
  /** ISO 8601. */
  timestamp: string;
  links?: ChatLink[];
  options?: ChatOption[];
}

/** A typed message is cut to this many characters. */
export const MAX_INPUT_LENGTH = 500;
/** The conversation keeps its newest messages only. */
export const MAX_HISTORY = 30;
/** The spec's "Chat product reply delayed 500 ms". */
export const PRODUCT_REPLY_DELAY_MS = 500;

export const CHAT_ERRORS = {
  generation: "Sorry, something went wrong while generating the response.",
  products: "Sorry, there was an issue loading the products.",
} as const;

export const QUICK_OPTIONS: readonly ChatOption[] = [
  { label: "Products", value: "products" },
  { label: "Contact", value: "contact" },
  { label: "Delivery", value: "delivery" },
];

export const BRAND_OPTION_PREFIX = "brand:";
export const PRODUCT_OPTION_PREFIX = "product:";

/**
 * A typed message as it is sent: line endings normalized, blank lines
 * squeezed, surrounding space trimmed, cut at MAX_INPUT_LENGTH characters
 * (code points, so an emoji is never split). Null when nothing is left.
 */
export function cleanInput(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const normalized = raw
    .replace(/\r\n?/g, "\n")
    // Control characters other than newline and tab say nothing.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (normalized === "") return null;
  const cut = truncate(normalized, MAX_INPUT_LENGTH, "").trim();
  return cut === "" ? null : cut;
}

/** At most `max` characters (code points); a cut text ends with `ellipsis`. */
export function truncate(text: string, max: number, ellipsis = "…"): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = Math.max(0, max - Array.from(ellipsis).length);
  return chars.slice(0, room).join("").trimEnd() + ellipsis;
}

export function createMessage(
  sender: Sender,
  text: string,
  extras: { links?: ChatLink[]; options?: ChatOption[] } = {},
  now: Date = new Date(),
): ChatMessage {
  return {
    sender,
    text,
    timestamp: now.toISOString(),
    ...(extras.links && extras.links.length > 0 ? { links: extras.links } : {}),
    ...(extras.options && extras.options.length > 0 ? { options: extras.options } : {}),
  };
}

/** The history with the new messages appended, keeping the newest MAX_HISTORY. */
export function appendMessages(history: readonly ChatMessage[], ...messages: ChatMessage[]): ChatMessage[] {
  return [...history, ...messages].slice(-MAX_HISTORY);
}

export function welcomeMessage(storeName: string, now: Date = new Date()): ChatMessage {
  return createMessage(
    "server",
    `Hi! Welcome to ${storeName}. I can help you find a product, or tell you how to reach us and how delivery works. Choose an option below or type your question.`,
    { options: [...QUICK_OPTIONS] },
    now,
  );
}

/** Only a chosen product gets the spec's delayed reply. */
export function replyDelayFor(optionValue: string): number {
  return optionValue.startsWith(PRODUCT_OPTION_PREFIX) ? PRODUCT_REPLY_DELAY_MS : 0;
}
