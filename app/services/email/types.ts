import { z } from "zod";
import { emailAddressSchema } from "~/utils/email-address.server";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  tag?: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe on newsletter mail. Names are header tokens, values one line. */
  headers?: Record<string, string>;
  /** The request the email was queued for (the delivery queue sets it): Postmark's `Metadata`, and the sending log line. */
  requestId?: string;
}

export interface EmailSender {
  readonly name: string;
  /** True for the offline stand-in: nothing leaves the machine. */
  readonly isStandIn: boolean;
  send(message: EmailMessage): Promise<{ messageId: string }>;
}

/** One row of the email outbox, as the offline stand-in hands it to the database. */
export interface OutboxRow {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  tag: string | null;
  headers: Record<string, string> | null;
}

export type WriteOutbox = (row: OutboxRow) => Promise<{ id: string }>;

export class EmailSendError extends Error {
  override readonly name = "EmailSendError";
  readonly provider: string;
  /** HTTP status of the provider's answer, when there was one. */
  readonly statusCode: number | undefined;
  /** The provider's own error code (Postmark's ErrorCode), when it gave one. */
  readonly providerCode: number | undefined;

  constructor(
    message: string,
    details: { provider: string; statusCode?: number | undefined; providerCode?: number | undefined; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.statusCode = details.statusCode;
    this.providerCode = details.providerCode;
  }
}

/** Headers a message may add: a token name that is not one the drivers set themselves, and a one-line value (no header injection). */
const RESERVED_HEADERS = new Set(["from", "to", "cc", "bcc", "subject", "reply-to", "content-type", "message-id", "date"]);
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/)
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()));
const headerValue = z
  .string()
  .max(2000)
  .regex(/^[^\p{Cc}]*$/u);

const sendableMessage = z.object({
  to: emailAddressSchema(),
  subject: z.string().trim().min(1),
  text: z.string().min(1),
  headers: z.record(headerName, headerValue).optional(),
});

/** Both drivers refuse the same malformed messages, so the stand-in hides no mistake Postmark would catch. */
export function assertSendable(message: EmailMessage, provider: string): void {
  const result = sendableMessage.safeParse(message);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new EmailSendError(`Email not sent: ${issue?.path.join(".") ?? "message"} is invalid.`, { provider });
  }
}
