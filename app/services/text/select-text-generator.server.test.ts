import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeServer } from "../../../tests/fakes/openai";
import { LOCAL_FORMATTER_NAME } from "./local-formatter.server";
import { selectTextGenerator } from "./select-text-generator.server";

describe("selectTextGenerator", () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());

  it("picks the local formatter when no OpenAI key is set", () => {
    expect(selectTextGenerator({ openaiModel: "gpt-4o-mini" })).toMatchObject({ name: LOCAL_FORMATTER_NAME, isStandIn: true });
    expect(selectTextGenerator({ openaiModel: "gpt-4o-mini", openaiApiKey: " " }).isStandIn).toBe(true);
  });

  it("picks OpenAI when the key is set, using the configured model and base URL", async () => {
    const generator = selectTextGenerator({
      openaiApiKey: "sk-configured",
      openaiModel: "gpt-4.1-mini",
      openaiBaseUrl: `${fake.url}/v1`,
    });
    expect(generator).toMatchObject({ name: "openai (gpt-4.1-mini)", isStandIn: false });

    await generator.reformatDescription("text");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-configured");
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-4.1-mini" });
  });
});
