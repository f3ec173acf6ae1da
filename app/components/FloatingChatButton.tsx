import { ChatIcon, ChatLink } from "~/components/shared";

/** The floating chat button's markup (root's layout loads it on demand: layout/on-demand.ts). */
export function FloatingChatButton() {
  return (
    <ChatLink className="chat-button">
      <ChatIcon />
      <span className="chat-button__label">Chat with us</span>
    </ChatLink>
  );
}
