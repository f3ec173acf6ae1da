import { createLocalTextFormatter } from "./local-formatter.server";
import { createOpenAITextGenerator } from "./openai-generator.server";
import type { TextGenerator } from "./types";

export interface TextGeneratorConfig {
  openaiApiKey?: string;
  openaiModel: string;
  openaiBaseUrl?: string;
}

/** OpenAI when its API key is set, otherwise the local formatter. */
export function selectTextGenerator(config: TextGeneratorConfig): TextGenerator {
  const apiKey = config.openaiApiKey?.trim();
  if (!apiKey) return createLocalTextFormatter();
  return createOpenAITextGenerator({
    apiKey,
    model: config.openaiModel,
    ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
  });
}
