import type { FormEvent, MouseEvent } from "react";
import type { ChatLink, ChatOption } from "~/chat/conversation";
import { CHAT_PATH } from "~/components/shared";

export function OptionButtons({
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

export function MessageLinks({ links }: { links: readonly ChatLink[] }) {
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
export function MessageTime({ iso, hydrated }: { iso: string; hydrated: boolean }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return <time dateTime={iso}>{hydrated ? localTime.format(date) : `${storeTime.format(date)} ET`}</time>;
}
