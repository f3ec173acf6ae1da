import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import { chatFormSchema } from "~/chat/chat-form.server";
import { CHAT_ERRORS, welcomeMessage } from "~/chat/conversation";
import { conversationCookieHeader, newConversationId, readConversation } from "~/chat/conversation-cookie.server";
import { takeChatTurn } from "~/chat/turn.server";
import { describeError } from "~/components/ErrorPage";
import { BackToStoreLink, CHAT_PATH, useHydrated } from "~/components/shared";
import { ChatComposer } from "~/components/chat/ChatComposer";
import { ChatLog } from "~/components/chat/ChatLog";
import { useChatConversation, type ChatActionData } from "~/components/chat/useChatConversation";
import type { RootLoaderData, RouteHandle } from "~/root";
import chatStyles from "~/styles/chat.css";
import { parseForm, readForm } from "~/utils/forms.server";

export const handle: RouteHandle = { bareLayout: true, personal: true, indexing: "private, nofollow" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const store = (matches.find((match) => match.id === "root")?.data as RootLoaderData | undefined)?.store;
  return [{ title: `Chat with us | ${store?.storeName ?? "Outdoor Kitchen Outlet"}` }];
};

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

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = context.store;
  const conversation = await readConversation(context.store, request);
  const headers = new Headers(NO_STORE);
  if (!conversation.id) {
    // The visit's conversation id, so the first message is already counted per visitor.
    headers.append("Set-Cookie", await conversationCookieHeader(context.store, request, { id: newConversationId(), messages: [] }));
  }
  return data(
    {
      messages: conversation.messages.length > 0 ? conversation.messages : [welcomeMessage(config.STORE_NAME)],
      storeName: config.STORE_NAME,
    },
    { headers },
  );
}

/**
 * intent=option (value), intent=message (text) or intent=reset. With script
 * the page posts mode=fetch and gets data; a plain form post is redirected
 * back to the newest message (POST-redirect-GET). Either way the
 * conversation travels in the Set-Cookie header.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config, { maxBytes: MAX_BODY_BYTES });
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

  const { config } = context.store;
  const store = { name: config.STORE_NAME, phone: config.STORE_PHONE, email: config.STORE_EMAIL };
  const conversation = await readConversation(context.store, request);
  const turn = await takeChatTurn(context.store, {
    post: parsed.data,
    conversation,
    visitor: { conversationId: conversation.id, address: context.clientAddress },
    store,
    generator: context.store.textGenerator,
  });
  const setCookie = turn.messages
    ? await conversationCookieHeader(context.store, request, { id: conversation.id ?? newConversationId(), messages: turn.messages })
    : undefined;
  const retryAfter: Record<string, string> = turn.retryAfterSeconds !== undefined ? { "Retry-After": String(turn.retryAfterSeconds) } : {};
  return respond(turn.status, setCookie, turn.delayMs, retryAfter);
}

export default function ChatbotPage() {
  const { messages, storeName } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const chat = useChatConversation(messages);

  return (
    <div className="chat">
      <header className="chat__header">
        <div>
          <h1 className="chat__title">Chat with us</h1>
          <p className="chat__store">{storeName}</p>
          <BackToStoreLink className="chat__back" />
        </div>
        <form method="post" action={CHAT_PATH} onSubmit={chat.onReset}>
          <input type="hidden" name="intent" value="reset" />
          <button type="submit" className="chat__reset">
            Start over
          </button>
        </form>
      </header>
      <ChatLog
        messages={chat.shown}
        waiting={chat.waiting}
        failed={chat.failed}
        hydrated={hydrated}
        logRef={chat.logRef}
        onOptionSubmit={chat.onOptionSubmit}
      />
      <ChatComposer
        hydrated={hydrated}
        canSend={chat.canSend}
        inputRef={chat.inputRef}
        onSubmit={chat.onMessageSubmit}
        onKeyDown={chat.onKeyDown}
        onInputChange={chat.onInputChange}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <div className="chat chat--error">
      <header className="chat__header">
        <div>
          <h1 className="chat__title">Chat with us</h1>
          <BackToStoreLink className="chat__back" />
        </div>
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
