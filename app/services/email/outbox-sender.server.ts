import { assertSendable, EmailSendError, type EmailSender, type WriteOutbox } from "./types";

export const OUTBOX_SENDER_NAME = "outbox (offline stand-in, nothing is sent)";

/** The offline stand-in: every message is written to the email outbox instead of being sent. */
export function createOutboxSender(write: WriteOutbox, from: string): EmailSender {
  return {
    name: OUTBOX_SENDER_NAME,
    isStandIn: true,
    async send(message) {
      assertSendable(message, "outbox");
      try {
        const { id } = await write({
          to: message.to,
          from,
          subject: message.subject,
          text: message.text,
          html: message.html ?? null,
          tag: message.tag ?? null,
          headers: message.headers && Object.keys(message.headers).length > 0 ? message.headers : null,
        });
        return { messageId: id };
      } catch (error) {
        throw new EmailSendError("Could not write the email to the outbox.", { provider: "outbox", cause: error });
      }
    },
  };
}
