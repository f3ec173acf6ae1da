import type { Config } from "~/config.server";
import { selectTextGenerator } from "./select-text-generator.server";
import type { TextGenerator } from "./types";

/** The text generator the configuration chooses: OpenAI when OPENAI_API_KEY is set, else the local formatter. */
export function textGeneratorFor(config: Pick<Config, "OPENAI_API_KEY" | "OPENAI_MODEL" | "OPENAI_BASE_URL">): TextGenerator {
  return selectTextGenerator({
    openaiApiKey: config.OPENAI_API_KEY,
    openaiModel: config.OPENAI_MODEL,
    openaiBaseUrl: config.OPENAI_BASE_URL,
  });
}
