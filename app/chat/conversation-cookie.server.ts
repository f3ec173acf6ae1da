import { randomBytes } from "node:crypto";
import { z } from "zod";
import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import { MAX_HISTORY, MAX_INPUT_LENGTH, truncate, type ChatMessage } from "./conversation";

/**
 * The conversation is kept for the visit in a signed session cookie (no
 * Max-Age: it ends when the browser closes), never in the database. The
 * cookie is compact: tuples instead of objects, seconds instead of ISO
 * times, texts cut, quick options kept on the newest message only, and the
 * oldest messages dropped until the Set-Cookie header fits COOKIE_BUDGET.
 */
const conversationCookie = signedCookie("chat");

/** Bytes of the whole Set-Cookie header; browsers keep at least 4096 per cookie. */
export const COOKIE_BUDGET = 3_500;
const SERVER_TEXT_CHARS = 1_000;
const LABEL_CHARS = 100;
const HREF_CHARS = 300;

export interface Conversation {
  /** Random id, for the rate limit; null when the browser sent no valid cookie. */
  id: string | null;
  messages: ChatMessage[];
}

type StoredLink = [label: string, href: string];
type StoredMessage = [sender: 0 | 1, text: string, seconds: number, links?: StoredLink[] | 0, options?: StoredLink[]];

const pair = z.tuple([z.string().max(LABEL_CHARS * 2), z.string().max(HREF_CHARS * 2)]);
const storedMessageSchema = z
  .tuple(
    [z.union([z.literal(0), z.literal(1)]), z.string().max(SERVER_TEXT_CHARS * 2), z.number().int().nonnegative()],
    z.union([z.literal(0), z.array(pair).max(40)]),
  )
  .refine((message) => message.length <= 5);
const storedSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  m: z.array(storedMessageSchema).max(MAX_HISTORY),
});

export function newConversationId(): string {
  return randomBytes(12).toString("base64url");
}

/** Links only to this site's pages, phone and email: a tampered cookie is rejected by its signature anyway. */
function safeHref(href: string): boolean {
  return /^\/(?!\/)/.test(href) || /^(tel|mailto):/.test(href);
}

export async function readConversation(keys: CookieKeys, request: Request): Promise<Conversation> {
  const parsed = storedSchema.safeParse(await conversationCookie.parse(keys, request).catch(() => null));
  if (!parsed.success) return { id: null, messages: [] };
  return { id: parsed.data.id, messages: parsed.data.m.map(fromStored) };
}

function fromStored(stored: z.infer<typeof storedMessageSchema>): ChatMessage {
  const [sender, text, seconds, links, options] = stored;
  return {
    sender: sender === 0 ? "user" : "server",
    text,
    timestamp: new Date(seconds * 1000).toISOString(),
    ...(Array.isArray(links) && links.length > 0
      ? { links: links.filter(([, href]) => safeHref(href)).map(([label, href]) => ({ label, href })) }
      : {}),
    ...(Array.isArray(options) && options.length > 0 ? { options: options.map(([label, value]) => ({ label, value })) } : {}),
  };
}

interface Compaction {
  textChars: number;
  labelChars: number;
  keepLinks: boolean;
  keepOptions: boolean;
}

function toStored(message: ChatMessage, isNewest: boolean, compaction: Compaction): StoredMessage {
  const limit = message.sender === "user" ? Math.min(MAX_INPUT_LENGTH, compaction.textChars) : compaction.textChars;
  const stored: StoredMessage = [
    message.sender === "user" ? 0 : 1,
    truncate(message.text, limit),
    Math.max(0, Math.floor(Date.parse(message.timestamp) / 1000) || 0),
  ];
  const links: StoredLink[] = compaction.keepLinks
    ? (message.links ?? [])
        .filter((link) => safeHref(link.href) && link.href.length <= HREF_CHARS)
        .map((link) => [truncate(link.label, compaction.labelChars), link.href])
    : [];
  const options: StoredLink[] =
    isNewest && compaction.keepOptions
      ? (message.options ?? []).map((option) => [truncate(option.label, compaction.labelChars), option.value])
      : [];
  if (options.length > 0) stored.push(links.length > 0 ? links : 0, options);
  else if (links.length > 0) stored.push(links);
  return stored;
}

/** Ever smaller ways to keep the newest message once older ones are gone. */
const COMPACTIONS: Compaction[] = [
  { textChars: SERVER_TEXT_CHARS, labelChars: LABEL_CHARS, keepLinks: true, keepOptions: true },
  { textChars: 500, labelChars: 60, keepLinks: true, keepOptions: true },
  { textChars: 300, labelChars: 40, keepLinks: true, keepOptions: true },
  { textChars: 200, labelChars: 40, keepLinks: false, keepOptions: false },
];

/**
 * The Set-Cookie header holding the conversation's newest messages (at most
 * MAX_HISTORY), within COOKIE_BUDGET bytes.
 */
export async function conversationCookieHeader(
  keys: CookieKeys,
  request: Request,
  conversation: { id: string; messages: readonly ChatMessage[] },
): Promise<string> {
  const serialize = (messages: readonly ChatMessage[], compaction: Compaction) =>
    conversationCookie.serialize(keys, request, {
      v: 1,
      id: conversation.id,
      m: messages.map((message, index) => toStored(message, index === messages.length - 1, compaction)),
    });
  const fits = (header: string) => Buffer.byteLength(header) <= COOKIE_BUDGET;

  // Drop the oldest messages until the rest fits (a few at a time when far over).
  let kept = conversation.messages.slice(-MAX_HISTORY);
  while (kept.length > 1) {
    const header = await serialize(kept, COMPACTIONS[0]);
    if (fits(header)) return header;
    const over = Buffer.byteLength(header) > COOKIE_BUDGET * 1.5;
    kept = kept.slice(over ? Math.max(1, Math.floor(kept.length / 3)) : 1);
  }
  // The newest message alone, made smaller until it fits.
  for (const compaction of COMPACTIONS) {
    const header = await serialize(kept, compaction);
    if (fits(header)) return header;
  }
  return serialize([], COMPACTIONS[0]);
}
