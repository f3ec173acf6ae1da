import { getConfig } from "~/config.server";
import { selectTextGenerator } from "./select-text-generator.server";
import type { TextGenerator } from "./types";

let generator: TextGenerator | undefined;

/** The process's text generator: OpenAI when configured, else the local formatter. */
export function getTextGenerator(): TextGenerator {
  if (!generator) {
    const config = getConfig();
    generator = selectTextGenerator({
      openaiApiKey: config.OPENAI_API_KEY,
      openaiModel: config.OPENAI_MODEL,
      openaiBaseUrl: config.OPENAI_BASE_URL,
    });
  }
  return generator;
}
