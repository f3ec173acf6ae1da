import { randomUUID } from "node:crypto";
import { bearerToken, isRecord, startFakeHttpServer, type FakeResponse, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

export const FAKE_OPENAI_REPLY = "This is the fake OpenAI server's reply.";

/**
 * A local stand-in for OpenAI's Chat Completions API
 * (https://platform.openai.com/docs/api-reference/chat): POST /v1/chat/completions with
 * `Authorization: Bearer KEY`, answering a `chat.completion` object.
 * Point the SDK at it with `baseURL: \`${fake.url}/v1\``.
 */
export function startFakeOpenAI() {
  return startFakeHttpServer(answerLikeOpenAI);
}

/** A `chat.completion` body whose single choice says `content`. */
export function chatCompletion(content: string | null, model = "gpt-4o-mini") {
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    system_fingerprint: "fp_fake",
  };
}

/** OpenAI's error envelope. */
export function openAIError(status: number, message: string, type: string, code: string | null = null): FakeResponse {
  return { status, body: { error: { message, type, param: null, code } } };
}

function answerLikeOpenAI(request: RecordedRequest): FakeResponse {
  if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
    return openAIError(404, `Invalid URL (${request.method} ${request.path})`, "invalid_request_error");
  }
  if (!bearerToken(request.headers)) {
    return openAIError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
      "invalid_request_error",
    );
  }
  if (!isRecord(request.body) || typeof request.body.model !== "string" || !Array.isArray(request.body.messages)) {
    return openAIError(400, "We could not parse the JSON body of your request.", "invalid_request_error");
  }
  return { status: 200, body: chatCompletion(FAKE_OPENAI_REPLY, request.body.model) };
}
