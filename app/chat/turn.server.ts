import type { z } from "zod";
import type { StoreRuntime } from "~/store-runtime";
import { answerQuestion } from "./answer.server";
import type { chatFormSchema } from "./chat-form.server";
import { appendMessages, CHAT_ERRORS, cleanInput, createMessage, QUICK_OPTIONS, welcomeMessage, type ChatMessage } from "./conversation";
import type { Conversation } from "./conversation-cookie.server";
import { replyToOption } from "./flow.server";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import { hitChatRateLimit, RATE_LIMIT_MESSAGE, type ChatVisitor } from "./rate-limit.server";
import type { StoreContact } from "./store-facts";
import { logError } from "~/observability/logger.server";
import type { TextGenerator } from "~/services/text/types";

type ChatPost = z.infer<typeof chatFormSchema>;

interface ChatTurn {
  status: 200 | 400 | 429;
  /** The conversation to keep, or null to keep the stored one unchanged. */
  messages: ChatMessage[] | null;
  /** Milliseconds the page waits before showing the reply. */
  delayMs: number;
  /** Seconds until the visitor may post again (with status 429). */
  retryAfterSeconds?: number;
}

const refused: ChatTurn = { status: 400, messages: null, delayMs: 0 };

/**
 * One turn of the chat: starting over, a quick option or a typed question.
 * Options and questions count against the visitor's rate limit; a refused
 * visitor is told once. A failing reply becomes the generation error message,
 * never a failed page.
 */
export async function takeChatTurn(
  { db, rateLimiter }: Pick<StoreRuntime, "db" | "rateLimiter">,
  {
    post,
    conversation,
    visitor,
    store,
    generator,
  }: { post: ChatPost; conversation: Conversation; visitor: ChatVisitor; store: StoreContact; generator: TextGenerator },
): Promise<ChatTurn> {
  if (post.intent === "reset") return { status: 200, messages: [], delayMs: 0 };

  let text: string | null = null;
  if (post.intent === "message") {
    text = cleanInput(post.text);
    // Empty or blank text is not sent.
    if (text === null) return refused;
  }

  const history = conversation.messages.length > 0 ? conversation.messages : [welcomeMessage(store.name)];
  const limit = await hitChatRateLimit(rateLimiter, visitor);
  if (!limit.allowed) {
    const alreadyTold = history.at(-1)?.text === RATE_LIMIT_MESSAGE;
    const messages = alreadyTold
      ? history
      : appendMessages(history, createMessage("server", RATE_LIMIT_MESSAGE, { options: [...QUICK_OPTIONS] }));
    return { status: 429, messages, delayMs: 0, retryAfterSeconds: retryAfterSeconds(limit.retryAfterMs) };
  }

  const received = new Date();
  let userText = text ?? "";
  let reply: ChatMessage;
  let delayMs = 0;
  try {
    if (post.intent === "option") {
      const chosen = await replyToOption(db, post.value, { store });
      if (!chosen) return refused;
      userText = chosen.userText;
      reply = chosen.reply;
      delayMs = chosen.delayMs;
    } else {
      const answer = await answerQuestion(db, userText, { store, history, generator });
      reply = createMessage("server", answer.text, { links: answer.links, options: answer.options });
    }
  } catch (error) {
    logError("Chat: the reply failed", error);
    reply = createMessage("server", CHAT_ERRORS.generation, { options: [...QUICK_OPTIONS] });
  }
  return { status: 200, messages: appendMessages(history, createMessage("user", userText, {}, received), reply), delayMs };
}
