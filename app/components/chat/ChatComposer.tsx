import type { FormEvent, KeyboardEvent, RefObject } from "react";
import { MAX_INPUT_LENGTH } from "~/chat/conversation";
import { CHAT_PATH } from "~/components/shared";

/** The message box: a plain form post without script; with script Enter sends and Send waits for text. */
export function ChatComposer({
  hydrated,
  canSend,
  inputRef,
  onSubmit,
  onKeyDown,
  onInputChange,
}: {
  hydrated: boolean;
  canSend: boolean;
  inputRef: RefObject<HTMLTextAreaElement>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  onInputChange: (value: string) => void;
}) {
  return (
    <form method="post" action={CHAT_PATH} className="chat__composer" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="message" />
      <label htmlFor="chat-input" className="visually-hidden">
        Your message
      </label>
      <textarea
        ref={inputRef}
        id="chat-input"
        name="text"
        rows={2}
        maxLength={MAX_INPUT_LENGTH}
        required
        placeholder="Ask about a product, delivery or returns…"
        onChange={(event) => onInputChange(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        aria-describedby="chat-input-hint"
      />
      <button type="submit" className="button button--primary chat__send" disabled={hydrated && !canSend}>
        Send
      </button>
      <p id="chat-input-hint" className="chat__hint">
        {hydrated ? "Enter sends, Shift+Enter adds a line." : `Up to ${MAX_INPUT_LENGTH} characters.`}
      </p>
    </form>
  );
}
