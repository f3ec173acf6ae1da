import { ChatIcon, ChatLink } from "~/components/shared";

/** The floating chat button's markup (ChatButton.tsx loads it on demand). */
export function FloatingChatButton() {
  return (
    <ChatLink className="chat-button">
      <ChatIcon />
      <span className="chat-button__label">Chat with us</span>
    </ChatLink>
  );
}
