import { describe, expect, it, vi } from "vitest";
import { emailConfigFrom, sendEmailSafely } from "./index.server";
import { EmailSendError, type EmailSender } from "./types";

const message = { to: "sales@example.com", subject: "New contact message", text: "Hi", tag: "contact-message" };

describe("emailConfigFrom", () => {
  it("sends from EMAIL_FROM, else from the store's address", () => {
    expect(emailConfigFrom({ STORE_EMAIL: "sales@example.com" })).toEqual({
      postmarkServerToken: undefined,
      emailFrom: "sales@example.com",
    });
    expect(emailConfigFrom({ STORE_EMAIL: "sales@example.com", EMAIL_FROM: "orders@example.com", POSTMARK_SERVER_TOKEN: "t" })).toEqual({
      postmarkServerToken: "t",
      emailFrom: "orders@example.com",
    });
  });
});

describe("sendEmailSafely", () => {
  it("answers the message id when sending works", async () => {
    const sender: EmailSender = { name: "test", isStandIn: true, send: vi.fn(async () => ({ messageId: "m1" })) };
    await expect(sendEmailSafely(message, { sender })).resolves.toEqual({ sent: true, messageId: "m1" });
  });

  it("logs a failure and never throws", async () => {
    const logger = { error: vi.fn() };
    const sender: EmailSender = {
      name: "test",
      isStandIn: false,
      send: async () => {
        throw new EmailSendError("Postmark said no", { provider: "postmark", statusCode: 422 });
      },
    };
    await expect(sendEmailSafely(message, { sender, logger })).resolves.toEqual({ sent: false, queued: false });
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0][0]).toBe("Email not sent (contact-message): Postmark said no");
    // The recipient stays out of the log line.
    expect(String(logger.error.mock.calls[0][0])).not.toContain("sales@example.com");
  });
});
