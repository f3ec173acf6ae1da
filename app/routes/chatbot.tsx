import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, useFetcher, useLoaderData, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type MouseEvent } from "react";
import { chatFormSchema } from "~/chat/chat-form.server";
import { answerQuestion } from "~/chat/answer.server";
import {
  appendMessages,
  CHAT_ERRORS,
  cleanInput,
  createMessage,
  MAX_INPUT_LENGTH,
  QUICK_OPTIONS,
  replyDelayFor,
  welcomeMessage,
  type ChatLink,
  type ChatMessage,
  type ChatOption,
} from "~/chat/conversation";
import { conversationCookieHeader, newConversationId, readConversation } from "~/chat/conversation-cookie.server";
import { replyToOption } from "~/chat/flow.server";
import { chatRateLimiter, RATE_LIMIT_MESSAGE, visitorKey } from "~/chat/rate-limit.server";
import { describeError } from "~/components/ErrorPage";
import type { RootLoaderData, RouteHandle } from "~/root";
import { getRuntime } from "~/runtime.server";
import chatStyles from "~/styles/chat.css";
import { parseForm, readForm } from "~/utils/forms.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle: RouteHandle = { bareLayout: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const store = (matches.find((match) => match.id === "root")?.data as RootLoaderData | undefined)?.store;
  return [{ title: `Chat with us | ${store?.storeName ?? "Outdoor Kitchen Outlet"}` }, { name: "robots", content: "noindex, nofollow" }];
};

const CHAT_PATH = "/chatbot";
/** A form post larger than this is refused before it is read; a message is cut at MAX_INPUT_LENGTH anyway. */
const MAX_BODY_BYTES = 64 * 1024;
const NO_STORE = { "Cache-Control": "private, no-store" };

/** The page holds the visitor's conversation: never cached (Set-Cookie headers pass through on their own). */
export const headers: HeadersFunction = () => NO_STORE;

/**
 * Reload the conversation after every chat post, refused ones included
 * (a 429 adds the rate-limit message; Remix skips reloading after a 4xx by default).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.split("?")[0] === CHAT_PATH ? true : defaultShouldRevalidate;

export async function loader({ request }: LoaderFunctionArgs) {
  const { config } = await getRuntime();
  const conversation = await readConversation(request);
  const headers = new Headers(NO_STORE);
  if (!conversation.id) {
    // The visit's conversation id, so the first message is already counted per visitor.
    headers.append("Set-Cookie", await conversationCookieHeader(request, { id: newConversationId(), messages: [] }));
  }
  return data(
    {
      messages: conversation.messages.length > 0 ? conversation.messages : [welcomeMessage(config.STORE_NAME)],
      storeName: config.STORE_NAME,
    },
    { headers },
  );
}

export type ChatActionData = { seq: string; ok: boolean; delayMs: number };

/**
 * intent=option (value), intent=message (text) or intent=reset. With script
 * the page posts mode=fetch and gets data; a plain form post is redirected
 * back to the newest message (POST-redirect-GET). Either way the
 * conversation travels in the Set-Cookie header.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, { maxBytes: MAX_BODY_BYTES });
  const fetchMode = form.mode === "fetch";
  const seq = /^\d{1,12}$/.test(form.seq ?? "") ? (form.seq as string) : "0";

  const respond = (status: number, setCookie?: string, delayMs = 0, extraHeaders: Record<string, string> = {}) => {
    const headers = new Headers({ ...NO_STORE, ...extraHeaders });
    if (setCookie) headers.append("Set-Cookie", setCookie);
    if (fetchMode) return data<ChatActionData>({ seq, ok: status < 400, delayMs }, { status, headers });
    return redirect(`${CHAT_PATH}#latest`, { status: 303, headers });
  };

  const parsed = parseForm(chatFormSchema, form);
  if (!parsed.ok) return respond(400);

  const { config, database } = await getRuntime();
  const store = { name: config.STORE_NAME, phone: config.STORE_PHONE, email: config.STORE_EMAIL };
  const conversation = await readConversation(request);
  const id = conversation.id ?? newConversationId();
  const save = (messages: ChatMessage[]) => conversationCookieHeader(request, { id, messages });

  if (parsed.data.intent === "reset") return respond(200, await save([]));

  let text: string | null = null;
  if (parsed.data.intent === "message") {
    text = cleanInput(parsed.data.text);
    // Empty or blank text is not sent.
    if (text === null) return respond(400);
  }

  const history = conversation.messages.length > 0 ? conversation.messages : [welcomeMessage(store.name)];
  const limit = chatRateLimiter.hit(visitorKey(request, conversation.id));
  if (!limit.allowed) {
    const alreadyTold = history.at(-1)?.text === RATE_LIMIT_MESSAGE;
    const messages = alreadyTold
      ? history
      : appendMessages(history, createMessage("server", RATE_LIMIT_MESSAGE, { options: [...QUICK_OPTIONS] }));
    return respond(429, await save(messages), 0, { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) });
  }

  const received = new Date();
  let userText = text ?? "";
  let reply: ChatMessage;
  let delayMs = 0;
  try {
    if (parsed.data.intent === "option") {
      const chosen = await replyToOption(parsed.data.value, { db: database.db, store });
      if (!chosen) return respond(400);
      userText = chosen.userText;
      reply = chosen.reply;
      delayMs = chosen.delayMs;
    } else {
      const answer = await answerQuestion(userText, { db: database.db, store, history });
      reply = createMessage("server", answer.text, { links: answer.links, options: answer.options });
    }
  } catch (error) {
    console.error("Chat: the reply failed", error);
    reply = createMessage("server", CHAT_ERRORS.generation, { options: [...QUICK_OPTIONS] });
  }
  const messages = appendMessages(history, createMessage("user", userText, {}, received), reply);
  return respond(200, await save(messages), delayMs);
}

type Pending = { seq: string; before: ChatMessage[]; user: ChatMessage; holdUntil: number };

export default function ChatbotPage() {
  const { messages, storeName } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
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

  function onReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFailed(false);
    fetcher.submit({ intent: "reset", mode: "fetch", seq: "0" }, { method: "post", action: CHAT_PATH });
  }

  return (
    <div className="chat">
      <header className="chat__header">
        <div>
          <h1 className="chat__title">Chat with us</h1>
          <p className="chat__store">{storeName}</p>
        </div>
        <form method="post" action={CHAT_PATH} onSubmit={onReset}>
          <input type="hidden" name="intent" value="reset" />
          <button type="submit" className="chat__reset">
            Start over
          </button>
        </form>
      </header>

      <div ref={logRef} className="chat__log" role="log" aria-live="polite" aria-label="Conversation">
        <ol className="chat__messages">
          {shown.map((message, index) => {
            const isNewest = index === shown.length - 1;
            return (
              <li
                key={`${message.timestamp}-${index}`}
                id={isNewest && !pending ? "latest" : undefined}
                className={`chat-message chat-message--${message.sender}`}
              >
                <p className="chat-message__meta">
                  <span className="chat-message__sender">{message.sender === "user" ? "You" : "Assistant"}</span>{" "}
                  <MessageTime iso={message.timestamp} hydrated={hydrated} />
                </p>
                <div className="chat-message__text">{message.text}</div>
                {message.links && message.links.length > 0 ? <MessageLinks links={message.links} /> : null}
                {isNewest && !pending && message.options && message.options.length > 0 ? (
                  <OptionButtons options={message.options} onSubmit={onOptionSubmit} />
                ) : null}
              </li>
            );
          })}
          {pending ? (
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

      <form method="post" action={CHAT_PATH} className="chat__composer" onSubmit={onMessageSubmit}>
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
          onChange={(event) => setHasText(cleanInput(event.currentTarget.value) !== null)}
          onKeyDown={onKeyDown}
          aria-describedby="chat-input-hint"
        />
        <button type="submit" className="button button--primary chat__send" disabled={hydrated && (!hasText || pending !== null)}>
          Send
        </button>
        <p id="chat-input-hint" className="chat__hint">
          {hydrated ? "Enter sends, Shift+Enter adds a line." : `Up to ${MAX_INPUT_LENGTH} characters.`}
        </p>
      </form>
    </div>
  );
}

function OptionButtons({
  options,
  onSubmit,
}: {
  options: readonly ChatOption[];
  onSubmit: (event: FormEvent<HTMLFormElement>, options: readonly ChatOption[]) => void;
}) {
  return (
    <form method="post" action={CHAT_PATH} className="chat-options" onSubmit={(event) => onSubmit(event, options)}>
      <input type="hidden" name="intent" value="option" />
      {options.map((option) => (
        <button key={option.value} type="submit" name="value" value={option.value} className="chat-options__button">
          {option.label}
        </button>
      ))}
    </form>
  );
}

function MessageLinks({ links }: { links: readonly ChatLink[] }) {
  return (
    <ul className="chat-message__links">
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href} onClick={(event) => openInStoreWindow(event, link.href)}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * In the popup, a store page opens in the window that opened the chat, so the
 * conversation stays open beside it. Anywhere else the link works as usual.
 */
function openInStoreWindow(event: MouseEvent<HTMLAnchorElement>, href: string) {
  if (!href.startsWith("/") || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const opener = window.opener as Window | null;
  if (!opener || opener.closed) return;
  try {
    if (opener.location.origin !== window.location.origin) return;
    opener.location.assign(href);
    opener.focus();
    event.preventDefault();
  } catch {
    // Another origin: follow the link here.
  }
}

const storeTime = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" });
const localTime = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });

/** Store time (Eastern) in the server render; the visitor's own time once script runs. */
function MessageTime({ iso, hydrated }: { iso: string; hydrated: boolean }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return <time dateTime={iso}>{hydrated ? localTime.format(date) : `${storeTime.format(date)} ET`}</time>;
}

/** The chat window's own frame; a refused request (413, 400...) says why, anything else is the spec's chat error. */
export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <div className="chat chat--error">
      <header className="chat__header">
        <h1 className="chat__title">Chat with us</h1>
      </header>
      <p className="chat__error" role="alert">
        {isRouteErrorResponse(error) ? describeError(error).message : CHAT_ERRORS.generation}
      </p>
      <p className="chat__error-actions">
        <a className="button button--primary" href={CHAT_PATH}>
          Reload the chat
        </a>
      </p>
    </div>
  );
}
