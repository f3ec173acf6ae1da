import type { MouseEvent } from "react";
import { ChatIcon } from "./icons";

export const CHAT_PATH = "/chatbot";
const POPUP_FEATURES = "popup=yes,width=400,height=600,resizable=yes,scrollbars=yes";

/**
 * The floating chat button. A plain link to /chatbot; with script it opens
 * the chat in a small window instead, and follows the link when the browser
 * blocks the window. Modified clicks (new tab, new window) are left alone.
 */
export function ChatButton() {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const left = Math.max(0, window.screenX + window.outerWidth - 440);
    const top = Math.max(0, window.screenY + window.outerHeight - 680);
    const chat = window.open(CHAT_PATH, "store-chat", `${POPUP_FEATURES},left=${left},top=${top}`);
    if (!chat) return; // blocked: the link navigates as usual
    event.preventDefault();
    chat.focus();
  };
  return (
    <a href={CHAT_PATH} className="chat-button" onClick={onClick}>
      <ChatIcon />
      <span className="chat-button__label">Chat with us</span>
    </a>
  );
}
