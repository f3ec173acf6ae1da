import { describe, expect, it } from "vitest";
import { postmarkError, startFakePostmark } from "../../../tests/fakes/postmark";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { createPostmarkSender } from "./postmark-sender.server";
import { EmailSendError, type EmailMessage } from "./types";

const message: EmailMessage = {
  to: "customer@example.com",
  subject: "Your order",
  text: "Thanks!",
  html: "<p>Thanks!</p>",
  tag: "order-confirmation",
  replyTo: "sales@example.com",
};

const fake = await startFakeForFile(startFakePostmark);

describe("createPostmarkSender", () => {
  const sender = () =>
    createPostmarkSender({ serverToken: "server-token-1", from: "store@example.com", requestHost: fake.host, useHttps: false });

  it("is the real driver", () => {
    expect(sender()).toMatchObject({ name: "postmark", isStandIn: false });
  });

  it("posts the message to /email with the server token and returns Postmark's MessageID", async () => {
    const { messageId } = await sender().send(message);

    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/email" });
    expect(request?.headers["x-postmark-server-token"]).toBe("server-token-1");
    expect(request?.headers["content-type"]).toContain("application/json");
    expect(request?.body).toEqual({
      From: "store@example.com",
      To: "customer@example.com",
      Subject: "Your order",
      TextBody: "Thanks!",
      HtmlBody: "<p>Thanks!</p>",
      Tag: "order-confirmation",
      ReplyTo: "sales@example.com",
      MessageStream: "outbound",
    });
  });

  it("leaves optional fields out when the message has none", async () => {
    await sender().send({ to: "a@example.com", subject: "Hi", text: "Hello" });
    expect(Object.keys(fake.requests[0]?.body as object).sort()).toEqual(["From", "MessageStream", "Subject", "TextBody", "To"].sort());
  });

  it("turns a 422 rejection into an EmailSendError carrying Postmark's message and code", async () => {
    fake.respondWith(() => postmarkError(300, "Invalid 'To' address: 'nobody'."));

    const failure = await sender()
      .send(message)
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(EmailSendError);
    expect(failure).toMatchObject({
      message: "Invalid 'To' address: 'nobody'.",
      provider: "postmark",
      statusCode: 422,
      providerCode: 300,
    });
  });

  it("reports a wrong token (401) as an EmailSendError", async () => {
    fake.respondWith(() => postmarkError(10, "Bad or missing Server API token.", 401));
    await expect(sender().send(message)).rejects.toMatchObject({
      name: "EmailSendError",
      statusCode: 401,
      message: "Bad or missing Server API token.",
    });
  });

  it("reports a server error with a non-JSON body as an EmailSendError", async () => {
    fake.respondWith(500, "<html>Internal Server Error</html>");
    await expect(sender().send(message)).rejects.toMatchObject({ name: "EmailSendError", statusCode: 500 });
  });

  it("rejects a success answer that is not Postmark's shape", async () => {
    fake.respondWith(200, "OK, sent");
    await expect(sender().send(message)).rejects.toThrow(/without a MessageID/);

    fake.respondWith(200, { To: "customer@example.com", ErrorCode: 0 });
    await expect(sender().send(message)).rejects.toThrow(/without a MessageID/);
  });

  it("refuses a malformed message without calling Postmark", async () => {
    await expect(sender().send({ ...message, to: "not-an-address" })).rejects.toBeInstanceOf(EmailSendError);
    expect(fake.requests).toHaveLength(0);
  });

  it("reports a 500 with Postmark's error body as an EmailSendError", async () => {
    fake.respondWith(() => postmarkError(0, "Internal server error.", 500));
    await expect(sender().send(message)).rejects.toMatchObject({ name: "EmailSendError", statusCode: 500, provider: "postmark" });
  });

  it("gives up after its time-out with an EmailSendError", async () => {
    fake.respondWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { status: 200, body: { MessageID: "late", ErrorCode: 0 } };
    });
    const impatient = createPostmarkSender({
      serverToken: "t",
      from: "store@example.com",
      requestHost: fake.host,
      useHttps: false,
      timeoutSeconds: 0.2,
    });
    const started = Date.now();
    await expect(impatient.send(message)).rejects.toBeInstanceOf(EmailSendError);
    expect(Date.now() - started).toBeLessThan(1_200);
  });

  it("reports an unreachable server as an EmailSendError", async () => {
    const gone = await startFakePostmark();
    await gone.close();
    const unreachable = createPostmarkSender({
      serverToken: "t",
      from: "store@example.com",
      requestHost: gone.host,
      useHttps: false,
    });
    await expect(unreachable.send(message)).rejects.toBeInstanceOf(EmailSendError);
  });

  it("sends extra headers as Postmark's Headers list", async () => {
    const headers = {
      "List-Unsubscribe": "<https://shop.example/newsletter/unsubscribe?token=u.1.0.x>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
    await sender().send({ ...message, headers });
    expect(fake.requests[0]?.body).toMatchObject({
      Headers: [
        { Name: "List-Unsubscribe", Value: headers["List-Unsubscribe"] },
        { Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click" },
      ],
    });
  });

  it("names the request the email was queued for in Postmark's Metadata", async () => {
    await sender().send({ ...message, requestId: "3be3c214-377d-4172-9139-e4819c5c39a0" });
    expect(fake.requests[0]?.body).toMatchObject({ Metadata: { requestId: "3be3c214-377d-4172-9139-e4819c5c39a0" } });
  });

  it.each([
    [{ "X-Evil": "a\r\nBcc: victim@example.com" }],
    [{ "Bad Name": "x" }],
    [{ Bcc: "victim@example.com" }],
    [{ "X-Long": "x".repeat(2001) }],
  ])("refuses a header that could inject or override: %j", async (headers) => {
    await expect(sender().send({ ...message, headers })).rejects.toBeInstanceOf(EmailSendError);
    expect(fake.requests).toHaveLength(0);
  });
});
