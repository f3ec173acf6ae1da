import type { MouseEvent, ReactNode } from "react";
import { isPlainClick } from "./site-link";

export const CHAT_PATH = "/chatbot";
const CHAT_WINDOW = "store-chat";
const POPUP_FEATURES = "popup=yes,width=400,height=600,resizable=yes,scrollbars=yes";

/**
 * Every link to the chat (the floating button, "Live Chat", the mobile menu's chat link): a plain
 * link to /chatbot; with script it opens the chat in a small window instead, and follows the link
 * when the browser blocks the window. Modified clicks (new tab, new window) are left alone.
 */
export function ChatLink({ className, children }: { className?: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    const left = Math.max(0, window.screenX + window.outerWidth - 440);
    const top = Math.max(0, window.screenY + window.outerHeight - 680);
    const chat = window.open(CHAT_PATH, CHAT_WINDOW, `${POPUP_FEATURES},left=${left},top=${top}`);
    if (!chat) return; // blocked: the link navigates as usual
    event.preventDefault();
    chat.focus();
  };
  return (
    <a href={CHAT_PATH} className={className} onClick={onClick}>
      {children}
    </a>
  );
}

/**
 * The chat's way back to the store. A link home; in the chat's own small window (with script) it
 * brings the store's window forward and closes the chat window instead.
 */
export function BackToStoreLink({ className }: { className?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event) || window.name !== CHAT_WINDOW || !window.opener) return;
    event.preventDefault();
    try {
      (window.opener as Window).focus();
    } catch {
      // The store's window may be gone; closing the chat still leaves the visitor where they were.
    }
    window.close();
  };
  return (
    <a href="/" className={className} onClick={onClick}>
      ← Back to the store
    </a>
  );
}
