import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakePostmark, type FakeServer } from "../../../tests/fakes/postmark";
import { OUTBOX_SENDER_NAME } from "./outbox-sender.server";
import { postmarkConnection, selectEmailSender } from "./select-email-sender.server";

const writeOutbox = vi.fn(async () => ({ id: "row-1" }));

describe("selectEmailSender", () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakePostmark();
  });
  afterAll(() => fake.close());

  it("picks the outbox stand-in when no Postmark token is set", () => {
    expect(selectEmailSender({ emailFrom: "store@example.com" }, writeOutbox)).toMatchObject({
      name: OUTBOX_SENDER_NAME,
      isStandIn: true,
    });
    expect(selectEmailSender({ emailFrom: "s@example.com", postmarkServerToken: "  " }, writeOutbox).isStandIn).toBe(true);
  });

  it("picks Postmark when the token is set", () => {
    const sender = selectEmailSender({ emailFrom: "store@example.com", postmarkServerToken: "token" }, writeOutbox);
    expect(sender).toMatchObject({ name: "postmark", isStandIn: false });
  });

  it("reaches a local Postmark-compatible server given as host:port over plain HTTP", async () => {
    const sender = selectEmailSender(
      { emailFrom: "store@example.com", postmarkServerToken: "token", postmarkRequestHost: fake.host },
      writeOutbox,
    );
    await sender.send({ to: "a@example.com", subject: "S", text: "T" });
    expect(fake.requests.at(-1)?.headers["x-postmark-server-token"]).toBe("token");
    expect(writeOutbox).not.toHaveBeenCalled();
  });
});

describe("postmarkConnection", () => {
  it("uses plain HTTP only for loopback hosts or an explicit http:// scheme", () => {
    expect(postmarkConnection("127.0.0.1:4000")).toEqual({ requestHost: "127.0.0.1:4000", useHttps: false });
    expect(postmarkConnection("localhost:4000")).toEqual({ requestHost: "localhost:4000", useHttps: false });
    expect(postmarkConnection("api.postmarkapp.com")).toEqual({ requestHost: "api.postmarkapp.com", useHttps: true });
    expect(postmarkConnection("http://mail.internal:8080")).toEqual({ requestHost: "mail.internal:8080", useHttps: false });
    expect(postmarkConnection("https://127.0.0.1:8443")).toEqual({ requestHost: "127.0.0.1:8443", useHttps: true });
  });
});
