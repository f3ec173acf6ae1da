import type { FormEvent, RefObject } from "react";
import { CHAT_ERRORS, type ChatMessage, type ChatOption } from "~/chat/conversation";
import { MessageLinks, MessageTime, OptionButtons } from "./MessageParts";

/** The conversation, newest last; the newest message carries its quick options and the #latest anchor. */
export function ChatLog({
  messages,
  waiting,
  failed,
  hydrated,
  logRef,
  onOptionSubmit,
}: {
  messages: readonly ChatMessage[];
  /** A message was sent and its reply is not shown yet. */
  waiting: boolean;
  failed: boolean;
  hydrated: boolean;
  logRef: RefObject<HTMLDivElement>;
  onOptionSubmit: (event: FormEvent<HTMLFormElement>, options: readonly ChatOption[]) => void;
}) {
  return (
    <div ref={logRef} className="chat__log" role="log" aria-live="polite" aria-label="Conversation">
      <ol className="chat__messages">
        {messages.map((message, index) => {
          const isNewest = index === messages.length - 1;
          return (
            <li
              key={`${message.timestamp}-${index}`}
              id={isNewest && !waiting ? "latest" : undefined}
              className={`chat-message chat-message--${message.sender}`}
            >
              <p className="chat-message__meta">
                <span className="chat-message__sender">{message.sender === "user" ? "You" : "Assistant"}</span>{" "}
                <MessageTime iso={message.timestamp} hydrated={hydrated} />
              </p>
              <div className="chat-message__text">{message.text}</div>
              {message.links && message.links.length > 0 ? <MessageLinks links={message.links} /> : null}
              {isNewest && !waiting && message.options && message.options.length > 0 ? (
                <OptionButtons options={message.options} onSubmit={onOptionSubmit} />
              ) : null}
            </li>
          );
        })}
        {waiting ? (
          <li className="chat-message chat-message--server chat-message--typing" id="latest">
            <span className="visually-hidden">The assistant is answering…</span>
            <span className="chat-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
          </li>
        ) : null}
      </ol>
      {failed ? (
        <p className="chat__error" role="alert">
          {CHAT_ERRORS.generation}
        </p>
      ) : null}
    </div>
  );
}
