export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ChatInput {
  system: string;
  messages: ChatMessage[];
  maxTokens?: number;
}

export interface TextGenerator {
  readonly name: string;
  /** True for the offline stand-in: no language model is involved. */
  readonly isStandIn: boolean;
  /** Punctuation fixed, key details in `**bold**`, paragraphs separated by a blank line. */
  reformatDescription(body: string): Promise<string>;
  /** The model's answer, or null when no language model is available. */
  chat(input: ChatInput): Promise<string | null>;
}

export class TextGenerationError extends Error {
  override readonly name = "TextGenerationError";
  readonly provider: string;
  /** HTTP status of the provider's answer, when there was one. */
  readonly statusCode: number | undefined;

  constructor(message: string, details: { provider: string; statusCode?: number; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.statusCode = details.statusCode;
  }
}
