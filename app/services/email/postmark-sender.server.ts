import type { Errors, Message } from "postmark";
import { z } from "zod";
import { importOnce } from "~/utils/import-once.server";
import { assertSendable, EmailSendError, type EmailMessage, type EmailSender } from "./types";

const PROVIDER = "postmark";
const DEFAULT_TIMEOUT_SECONDS = 10;

export interface PostmarkSenderOptions {
  serverToken: string;
  from: string;
  /** Host and port without a scheme; defaults to Postmark's API host. */
  requestHost?: string;
  useHttps?: boolean;
  /** How long to wait for Postmark's answer (the SDK counts seconds); 10 unless a test says otherwise. */
  timeoutSeconds?: number;
}

const loadSdk = importOnce(() => import("postmark"));

const sendingResponse = z.object({
  MessageID: z.string().min(1),
  ErrorCode: z.number().optional(),
  Message: z.string().optional(),
});

/** Sends through Postmark's email API with the official SDK. */
export function createPostmarkSender(options: PostmarkSenderOptions): EmailSender {
  const connect = importOnce(async () => {
    const { ServerClient } = await loadSdk();
    return new ServerClient(options.serverToken, {
      timeout: options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      // Absent keys must stay absent: the SDK spreads these over its defaults.
      ...(options.requestHost === undefined ? {} : { requestHost: options.requestHost }),
      ...(options.useHttps === undefined ? {} : { useHttps: options.useHttps }),
    });
  });

  return {
    name: "postmark",
    isStandIn: false,
    async send(message) {
      assertSendable(message, PROVIDER);
      const client = await connect();
      let answer: unknown;
      try {
        answer = await client.sendEmail(toPostmarkMessage(options.from, message));
      } catch (error) {
        throw toEmailSendError(error, (await loadSdk()).Errors.PostmarkError);
      }
      return { messageId: messageIdFrom(answer) };
    },
  };
}

function toPostmarkMessage(from: string, message: EmailMessage): Message {
  return {
    From: from,
    To: message.to,
    Subject: message.subject,
    TextBody: message.text,
    HtmlBody: message.html,
    Tag: message.tag,
    ReplyTo: message.replyTo,
    ...(message.headers && Object.keys(message.headers).length > 0
      ? { Headers: Object.entries(message.headers).map(([Name, Value]) => ({ Name, Value })) }
      : {}),
    // Kept with the message at Postmark (its activity page and webhooks), to find the request that sent it.
    ...(message.requestId ? { Metadata: { requestId: message.requestId } } : {}),
    MessageStream: "outbound",
  };
}

function messageIdFrom(answer: unknown): string {
  const parsed = sendingResponse.safeParse(answer);
  if (!parsed.success) {
    throw new EmailSendError("Postmark answered without a MessageID.", { provider: PROVIDER });
  }
  const { MessageID, ErrorCode, Message } = parsed.data;
  if (ErrorCode !== undefined && ErrorCode !== 0) {
    throw new EmailSendError(Message ?? `Postmark error ${ErrorCode}`, { provider: PROVIDER, providerCode: ErrorCode });
  }
  return MessageID;
}

function toEmailSendError(error: unknown, PostmarkError: typeof Errors.PostmarkError): EmailSendError {
  if (error instanceof PostmarkError) {
    return new EmailSendError(error.message, {
      provider: PROVIDER,
      statusCode: error.statusCode || undefined,
      providerCode: error.code || undefined,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EmailSendError(message, { provider: PROVIDER, cause: error });
}
