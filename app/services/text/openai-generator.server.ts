import type OpenAI from "openai";
import { z } from "zod";
import { importOnce } from "~/utils/import-once.server";
import { TextGenerationError, type ChatInput, type TextGenerator } from "./types";

const PROVIDER = "openai";
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRIES = 1;
const DESCRIPTION_MAX_TOKENS = 2_000;

export const REFORMAT_DESCRIPTION_INSTRUCTION = [
  "You format product descriptions for an online store.",
  "Fix punctuation and capitalization, put key details (measurements, BTU, burner counts, fuel types, materials) in **bold** markdown,",
  "and separate paragraphs of two or three sentences with a blank line.",
  "Keep every fact, add none, and answer with the formatted text only.",
].join(" ");

export interface OpenAITextGeneratorOptions {
  apiKey: string;
  model: string;
  /** e.g. `http://127.0.0.1:PORT/v1` for a local OpenAI-compatible server. */
  baseURL?: string;
  /** Per attempt; 10 s unless a test says otherwise. */
  timeoutMs?: number;
  /** Retries after a time-out or a 5xx/429 (the SDK's rules); 1 by default. */
  maxRetries?: number;
}

const loadSdk = importOnce(() => import("openai"));

const completionAnswer = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable(), refusal: z.string().nullish() }) })).min(1),
});

/** Chat completions through the official OpenAI SDK. */
export function createOpenAITextGenerator(options: OpenAITextGeneratorOptions): TextGenerator {
  const connect = importOnce(async () => {
    const { default: OpenAIClient } = await loadSdk();
    return new OpenAIClient({
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    });
  });

  async function complete(messages: OpenAI.Chat.ChatCompletionMessageParam[], maxTokens: number | undefined): Promise<string> {
    const client = await connect();
    let answer: unknown;
    try {
      answer = await client.chat.completions.create({
        model: options.model,
        messages,
        ...(maxTokens === undefined ? {} : { max_completion_tokens: maxTokens }),
      });
    } catch (error) {
      throw toTextGenerationError(error, (await loadSdk()).default.APIError);
    }
    return contentOf(answer);
  }

  return {
    name: `openai (${options.model})`,
    isStandIn: false,
    async reformatDescription(body) {
      if (body.trim() === "") return "";
      return complete(
        [
          { role: "system", content: REFORMAT_DESCRIPTION_INSTRUCTION },
          { role: "user", content: body },
        ],
        DESCRIPTION_MAX_TOKENS,
      );
    },
    chat(input: ChatInput) {
      return complete([{ role: "system", content: input.system }, ...input.messages], input.maxTokens);
    },
  };
}

function contentOf(answer: unknown): string {
  const parsed = completionAnswer.safeParse(answer);
  if (!parsed.success) {
    throw new TextGenerationError("OpenAI answered with an unexpected body.", { provider: PROVIDER });
  }
  const message = parsed.data.choices[0]?.message;
  if (message?.refusal) {
    throw new TextGenerationError(`OpenAI refused: ${message.refusal}`, { provider: PROVIDER });
  }
  const content = message?.content?.trim();
  if (!content) throw new TextGenerationError("OpenAI answered with no text.", { provider: PROVIDER });
  return content;
}

function toTextGenerationError(error: unknown, APIError: typeof OpenAI.APIError): TextGenerationError {
  if (error instanceof APIError) {
    return new TextGenerationError(error.message, {
      provider: PROVIDER,
      ...(error.status === undefined ? {} : { statusCode: error.status }),
      cause: error,
    });
  }
  // JSON.parse of a malformed body surfaces as a SyntaxError from inside the SDK.
  const reason = error instanceof SyntaxError ? "OpenAI answered with a malformed body." : String(error);
  return new TextGenerationError(reason, { provider: PROVIDER, cause: error });
}
