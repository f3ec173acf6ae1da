import { formatDescription } from "./format-description";
import type { TextGenerator } from "./types";

export const LOCAL_FORMATTER_NAME = "local formatter (offline stand-in, not a language model)";

/**
 * The offline stand-in: formats descriptions with fixed rules and has no chat answers,
 * which tells the chat feature to use its own offline answerer.
 */
export function createLocalTextFormatter(): TextGenerator {
  return {
    name: LOCAL_FORMATTER_NAME,
    isStandIn: true,
    async reformatDescription(body) {
      return formatDescription(body);
    },
    async chat() {
      return null;
    },
  };
}
