import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { cleanInput, createMessage, replyDelayFor, type ChatMessage, type ChatOption } from "~/chat/conversation";
import { CHAT_PATH } from "~/components/shared";

/** What the chat action answers to a script post (mode=fetch). */
export type ChatActionData = { seq: string; ok: boolean; delayMs: number };

type Pending = { seq: string; before: ChatMessage[]; user: ChatMessage; holdUntil: number };

/**
 * The chat page's client state with script: a post shows the shopper's
 * message at once with a typing indicator, and the reply (from the reloaded
 * loader) no sooner than the hold the action asked for. A request that fails
 * without an answer shows the error line. Without script the page's forms post
 * as they are and nothing here runs.
 */
export function useChatConversation(messages: ChatMessage[]) {
  const fetcher = useFetcher<ChatActionData>();
  const [pending, setPending] = useState<Pending | null>(null);
  const [failed, setFailed] = useState(false);
  const [hasText, setHasText] = useState(false);
  const seqRef = useRef(0);
  const sawBusy = useRef(false);
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // The reply has arrived (and the loader has the new messages): show it, no sooner than the hold.
  useEffect(() => {
    if (!pending) return;
    if (fetcher.state !== "idle") {
      sawBusy.current = true;
      return;
    }
    if (fetcher.data?.seq !== pending.seq) {
      if (sawBusy.current) {
        // The request failed without an answer.
        sawBusy.current = false;
        setPending(null);
        setFailed(true);
      }
      return;
    }
    sawBusy.current = false;
    const wait = pending.holdUntil - Date.now();
    if (wait <= 0) {
      setPending(null);
      return;
    }
    const timer = window.setTimeout(() => setPending(null), wait);
    return () => window.clearTimeout(timer);
  }, [pending, fetcher.state, fetcher.data]);

  const shown = pending ? [...pending.before, pending.user] : messages;
  const newest = shown[shown.length - 1];

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [shown.length, newest?.timestamp, pending]);

  function send(fields: Record<string, string>, userText: string, delayMs: number) {
    if (pending) return;
    seqRef.current += 1;
    const seq = `${Date.now() % 1e9}${seqRef.current}`.slice(-12);
    setFailed(false);
    setPending({ seq, before: messages, user: createMessage("user", userText), holdUntil: Date.now() + delayMs });
    fetcher.submit({ ...fields, mode: "fetch", seq }, { method: "post", action: CHAT_PATH });
  }

  function onOptionSubmit(event: FormEvent<HTMLFormElement>, options: readonly ChatOption[]) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const value = submitter instanceof HTMLButtonElement ? submitter.value : "";
    const option = options.find((candidate) => candidate.value === value);
    if (option) send({ intent: "option", value: option.value }, option.label, replyDelayFor(option.value));
  }

  function onMessageSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = inputRef.current;
    const text = cleanInput(input?.value);
    if (!input || text === null || pending) return;
    send({ intent: "message", text }, text, 0);
    input.value = "";
    setHasText(false);
    input.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    // Enter sends; Shift+Enter starts a new line.
    event.preventDefault();
    if (cleanInput(event.currentTarget.value) !== null) event.currentTarget.form?.requestSubmit();
  }

  function onInputChange(value: string) {
    setHasText(cleanInput(value) !== null);
  }

  function onReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFailed(false);
    fetcher.submit({ intent: "reset", mode: "fetch", seq: "0" }, { method: "post", action: CHAT_PATH });
  }

  return {
    shown,
    waiting: pending !== null,
    failed,
    canSend: hasText && pending === null,
    logRef,
    inputRef,
    onOptionSubmit,
    onMessageSubmit,
    onKeyDown,
    onInputChange,
    onReset,
  };
}
