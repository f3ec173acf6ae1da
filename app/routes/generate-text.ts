import { z } from "zod";
import { answerQuestion } from "~/chat/answer.server";
import { readConversation } from "~/chat/conversation-cookie.server";
import { hitChatRateLimit, RATE_LIMIT_MESSAGE } from "~/chat/rate-limit.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed } from "~/utils/json-route.server";

/**
 * Spec section 7: `POST /generate-text { prompt }` answers `{ text }` or `{ error }`.
 * It answers as the chat does (same module, same per-visitor limit, counted
 * together with the chat page's messages).
 */
export const MAX_PROMPT_CHARS = 4_000;

const payload = z.strictObject({
  prompt: z
    .string()
    .max(MAX_PROMPT_CHARS, `prompt must be ${MAX_PROMPT_CHARS} characters or fewer`)
    .refine((prompt) => prompt.trim() !== "", "prompt must not be empty"),
});

export const loader = methodNotAllowed;

export const action = jsonAction(
  payload,
  async ({ context, payload: { prompt } }) => {
    const { config, db, textGenerator } = context.store;
    const store = { name: config.STORE_NAME, phone: config.STORE_PHONE, email: config.STORE_EMAIL };
    const answer = await answerQuestion(db, prompt.trim(), { store, generator: textGenerator });
    if (answer.source === "error") return jsonError(502, answer.text);
    return jsonResponse({ text: answer.text });
  },
  {
    // Room for the prompt in multi-byte characters and JSON escapes; the character limit is the schema's.
    maxBytes: MAX_PROMPT_CHARS * 6 + 64,
    rateLimit: async ({ request, context }) => {
      const conversation = await readConversation(context.store, request);
      return hitChatRateLimit(context.store.rateLimiter, { conversationId: conversation.id, address: context.clientAddress });
    },
    rateLimitMessage: RATE_LIMIT_MESSAGE,
  },
);
