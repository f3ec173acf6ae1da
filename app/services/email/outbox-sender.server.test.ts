import { describe, expect, it, vi } from "vitest";
import { createOutboxSender, OUTBOX_SENDER_NAME } from "./outbox-sender.server";
import { EmailSendError, type OutboxRow } from "./types";

describe("createOutboxSender", () => {
  it("says plainly that it is an offline stand-in", () => {
    const sender = createOutboxSender(async () => ({ id: "1" }), "store@example.com");
    expect(sender.isStandIn).toBe(true);
    expect(sender.name).toBe("outbox (offline stand-in, nothing is sent)");
    expect(sender.name).toBe(OUTBOX_SENDER_NAME);
  });

  it("writes the whole message to the outbox and answers the row id", async () => {
    const rows: OutboxRow[] = [];
    const sender = createOutboxSender(async (row) => {
      rows.push(row);
      return { id: "row-42" };
    }, "store@example.com");

    const result = await sender.send({
      to: "customer@example.com",
      subject: "Your order",
      text: "Thanks!",
      html: "<p>Thanks!</p>",
      tag: "order-confirmation",
    });

    expect(result).toEqual({ messageId: "row-42" });
    expect(rows).toEqual([
      {
        to: "customer@example.com",
        from: "store@example.com",
        subject: "Your order",
        text: "Thanks!",
        html: "<p>Thanks!</p>",
        tag: "order-confirmation",
        headers: null,
      },
    ]);
  });

  it("stores null for a missing html body and tag", async () => {
    const write = vi.fn(async () => ({ id: "1" }));
    await createOutboxSender(write, "store@example.com").send({ to: "a@example.com", subject: "S", text: "T" });
    expect(write).toHaveBeenCalledWith(expect.objectContaining({ html: null, tag: null }));
  });

  it("wraps a failed write in an EmailSendError", async () => {
    const sender = createOutboxSender(async () => {
      throw new Error("database is down");
    }, "store@example.com");
    const failure = await sender.send({ to: "a@example.com", subject: "S", text: "T" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmailSendError);
    expect((failure as EmailSendError).cause).toEqual(new Error("database is down"));
  });

  it("refuses the same malformed messages as the real driver", async () => {
    const write = vi.fn(async () => ({ id: "1" }));
    const sender = createOutboxSender(write, "store@example.com");
    await expect(sender.send({ to: "nobody", subject: "S", text: "T" })).rejects.toBeInstanceOf(EmailSendError);
    await expect(sender.send({ to: "a@example.com", subject: "  ", text: "T" })).rejects.toBeInstanceOf(EmailSendError);
    expect(write).not.toHaveBeenCalled();
  });
});
