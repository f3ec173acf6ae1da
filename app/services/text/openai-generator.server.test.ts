import { describe, expect, it } from "vitest";
import { chatCompletion, FAKE_OPENAI_REPLY, openAIError, startFakeOpenAI } from "../../../tests/fakes/openai";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { createOpenAITextGenerator, REFORMAT_DESCRIPTION_INSTRUCTION } from "./openai-generator.server";
import { TextGenerationError } from "./types";

const fake = await startFakeForFile(startFakeOpenAI);

describe("createOpenAITextGenerator", () => {
  const generator = () => createOpenAITextGenerator({ apiKey: "sk-test-123", model: "gpt-4o-mini", baseURL: `${fake.url}/v1` });

  it("is the real driver and names its model", () => {
    expect(generator()).toMatchObject({ name: "openai (gpt-4o-mini)", isStandIn: false });
  });

  it("asks for a reformatted description with the fixed instruction and Bearer auth", async () => {
    const text = await generator().reformatDescription("a 5 burner grill made of 304 stainless steel");

    expect(text).toBe(FAKE_OPENAI_REPLY);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(request?.headers.authorization).toBe("Bearer sk-test-123");
    expect(request?.body).toMatchObject({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: REFORMAT_DESCRIPTION_INSTRUCTION },
        { role: "user", content: "a 5 burner grill made of 304 stainless steel" },
      ],
    });
  });

  it("does not call the API for an empty description", async () => {
    expect(await generator().reformatDescription("  \n ")).toBe("");
    expect(fake.requests).toHaveLength(0);
  });

  it("sends the chat's own system prompt, the conversation and the token limit", async () => {
    fake.respondWith(200, chatCompletion("  We ship in 3-5 business days.  "));

    const answer = await generator().chat({
      system: "You are the store's assistant.",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello! How can I help?" },
        { role: "user", content: "How fast do you ship?" },
      ],
      maxTokens: 200,
    });

    expect(answer).toBe("We ship in 3-5 business days.");
    expect(fake.requests[0]?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are the store's assistant." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello! How can I help?" },
        { role: "user", content: "How fast do you ship?" },
      ],
      max_completion_tokens: 200,
    });
  });

  it("leaves the token limit out of a chat that sets none", async () => {
    await generator().chat({ system: "s", messages: [{ role: "user", content: "q" }] });
    expect(fake.requests[0]?.body).not.toHaveProperty("max_completion_tokens");
  });

  it("turns a 401 into a TextGenerationError with OpenAI's message, without retrying", async () => {
    fake.respondWith(() => openAIError(401, "Incorrect API key provided: sk-test-123.", "invalid_request_error", "invalid_api_key"));

    const failure = await generator()
      .reformatDescription("text")
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TextGenerationError);
    expect(failure).toMatchObject({ statusCode: 401, provider: "openai" });
    expect((failure as Error).message).toContain("Incorrect API key provided");
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a server error once, then gives up with a TextGenerationError", async () => {
    fake.respondWith(500, { error: { message: "The server had an error", type: "server_error" } }, { "retry-after-ms": "0" });

    await expect(generator().chat({ system: "s", messages: [{ role: "user", content: "q" }] })).rejects.toMatchObject({
      name: "TextGenerationError",
      statusCode: 500,
    });
    expect(fake.requests).toHaveLength(2);
  });

  it("rejects a body that is not JSON", async () => {
    fake.respondWith(200, "{ not json", { "content-type": "application/json" });
    await expect(generator().reformatDescription("text")).rejects.toThrow("OpenAI answered with a malformed body.");
  });

  it("rejects an answer that is not a chat completion", async () => {
    fake.respondWith(200, "plain words");
    await expect(generator().reformatDescription("text")).rejects.toThrow("OpenAI answered with an unexpected body.");

    fake.respondWith(200, { ...chatCompletion("x"), choices: [] });
    await expect(generator().reformatDescription("text")).rejects.toThrow("OpenAI answered with an unexpected body.");
  });

  it("rejects an empty answer", async () => {
    fake.respondWith(200, chatCompletion(null));
    await expect(generator().chat({ system: "s", messages: [] })).rejects.toThrow("OpenAI answered with no text.");
  });

  it("turns a 400 with OpenAI's error body into a TextGenerationError, without retrying", async () => {
    fake.respondWith(() => openAIError(400, "Invalid 'messages': empty array.", "invalid_request_error"));
    await expect(generator().chat({ system: "s", messages: [] })).rejects.toMatchObject({ statusCode: 400, provider: "openai" });
    expect(fake.requests).toHaveLength(1);
  });

  it("gives up after its time-out with a TextGenerationError, while the answer is still on its way", async () => {
    // The fake answers only when the test lets it: a rejection before that can only be the generator's own time-out.
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    fake.respondWith(async () => {
      await held;
      return { status: 200, body: chatCompletion("late") };
    });
    const impatient = createOpenAITextGenerator({ apiKey: "k", model: "m", baseURL: `${fake.url}/v1`, timeoutMs: 200, maxRetries: 0 });
    try {
      await expect(impatient.reformatDescription("text")).rejects.toBeInstanceOf(TextGenerationError);
      expect(fake.requests).toHaveLength(1);
    } finally {
      answer();
    }
  });

  it("reports an unreachable server as a TextGenerationError", async () => {
    const gone = await startFakeOpenAI();
    await gone.close();
    const unreachable = createOpenAITextGenerator({ apiKey: "k", model: "m", baseURL: `${gone.url}/v1` });
    await expect(unreachable.reformatDescription("text")).rejects.toBeInstanceOf(TextGenerationError);
  });
});
