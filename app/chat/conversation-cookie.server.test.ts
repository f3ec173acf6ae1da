import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { createMessage, MAX_HISTORY, type ChatMessage } from "./conversation";
import { COOKIE_BUDGET, conversationCookieHeader, newConversationId, readConversation } from "./conversation-cookie.server";

function requestWith(setCookie?: string): Request {
  return new Request("http://store.test/chatbot", { headers: setCookie ? { Cookie: setCookie.split(";")[0] } : {} });
}

const at = new Date("2025-06-01T12:30:00Z");

// The cookie is signed with the runtime's session secret; no database is needed.
const keys = { config: parseConfig({}), sessionSecret: "test-secret-that-is-long-enough-0123456789" };

describe("the conversation cookie", () => {
  it("round-trips messages, links and the newest message's options, for the browser session only", async () => {
    const id = newConversationId();
    const messages: ChatMessage[] = [
      createMessage("server", "Welcome", { options: [{ label: "Products", value: "products" }] }, at),
      createMessage("user", "Contact", {}, at),
      createMessage(
        "server",
        "Call us",
        { links: [{ label: "Contact page", href: "/contact" }], options: [{ label: "Delivery", value: "delivery" }] },
        at,
      ),
    ];
    const header = await conversationCookieHeader(keys, requestWith(), { id, messages });
    expect(header).toMatch(/^chat=/);
    expect(header).not.toMatch(/Max-Age|Expires/i);
    expect(header).toMatch(/HttpOnly/i);
    const read = await readConversation(keys, requestWith(header));
    expect(read.id).toBe(id);
    expect(read.messages).toEqual([
      { sender: "server", text: "Welcome", timestamp: at.toISOString() },
      { sender: "user", text: "Contact", timestamp: at.toISOString() },
      messages[2],
    ]);
  });

  it("is empty without a cookie, and with a tampered one", async () => {
    expect(await readConversation(keys, requestWith())).toEqual({ id: null, messages: [] });
    const header = await conversationCookieHeader(keys, requestWith(), {
      id: newConversationId(),
      messages: [createMessage("user", "hi", {}, at)],
    });
    const value = header.split(";")[0];
    const tampered = value.slice(0, 10) + (value[10] === "A" ? "B" : "A") + value.slice(11);
    expect(await readConversation(keys, new Request("http://store.test/", { headers: { Cookie: tampered } }))).toEqual({
      id: null,
      messages: [],
    });
  });

  it(`stays within ${COOKIE_BUDGET} bytes by dropping the oldest messages`, async () => {
    const messages = Array.from({ length: 60 }, (_, index) =>
      createMessage(
        index % 2 ? "server" : "user",
        `message ${index} ${"é long text ".repeat(200)}`,
        {
          links: [{ label: "A product with a long title ".repeat(10), href: `/product/blaze-${index}` }],
          options: Array.from({ length: 20 }, (_, option) => ({
            label: `Option ${option} ${"x".repeat(120)}`,
            value: `product:blaze-${option}`,
          })),
        },
        at,
      ),
    );
    const header = await conversationCookieHeader(keys, requestWith(), { id: newConversationId(), messages });
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(COOKIE_BUDGET);
    const read = await readConversation(keys, requestWith(header));
    expect(read.messages.length).toBeGreaterThanOrEqual(1);
    expect(read.messages.length).toBeLessThanOrEqual(MAX_HISTORY);
    // The newest message is kept, with its options; older ones lose theirs.
    expect(read.messages.at(-1)?.text).toMatch(/^message 59 /);
    expect(read.messages.at(-1)?.options?.length).toBeGreaterThan(0);
    expect(read.messages.slice(0, -1).every((message) => message.options === undefined)).toBe(true);
  });

  it("keeps a typical conversation whole: brand list, product list and answers", async () => {
    const options = Array.from({ length: 10 }, (_, index) => ({
      label: `Blaze Premium LTE+ 40-Inch 5-Burner Built-In Natural Gas Grill w/ Lift-Assist Hood ${index}`,
      value: `product:blaze-31598${index}`,
    }));
    const messages = [
      createMessage("server", "Hi! Welcome.", {}, at),
      createMessage("user", "Products", {}, at),
      createMessage("server", "Which brand are you interested in?", {}, at),
      createMessage("user", "Blaze", {}, at),
      createMessage(
        "server",
        "Here are 10 of our 367 Blaze products. Choose one to get its link:",
        { options, links: [{ label: "More from Blaze", href: "/products/blaze/all" }] },
        at,
      ),
    ];
    const header = await conversationCookieHeader(keys, requestWith(), { id: newConversationId(), messages });
    const read = await readConversation(keys, requestWith(header));
    expect(read.messages).toHaveLength(5);
    expect(read.messages.at(-1)?.options).toHaveLength(10);
  });

  it("drops links that do not lead to this store, a phone or an email", async () => {
    const header = await conversationCookieHeader(keys, requestWith(), {
      id: newConversationId(),
      messages: [
        createMessage(
          "server",
          "x",
          {
            links: [
              { label: "evil", href: "javascript:alert(1)" },
              { label: "ok", href: "/contact" },
              { label: "far", href: "//evil.test" },
            ],
          },
          at,
        ),
      ],
    });
    expect((await readConversation(keys, requestWith(header))).messages[0].links).toEqual([{ label: "ok", href: "/contact" }]);
  });
});
