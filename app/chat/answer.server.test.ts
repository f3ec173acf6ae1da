import { describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import type { TextGenerator } from "~/services/text/types";
import { answerQuestion } from "./answer.server";
import { CHAT_ERRORS } from "./conversation";

const store = { name: "Outdoor Kitchen Outlet", phone: "(877) 555-0142", email: "sales@example.com" };
const brokenDb = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error("connection lost");
    },
  },
) as unknown as Database;

function generator(chat: TextGenerator["chat"]): TextGenerator {
  return { name: "stub", isStandIn: false, reformatDescription: async (body) => body, chat };
}

describe("answerQuestion without a catalog", () => {
  it("says the products could not be loaded when the catalog search fails", async () => {
    const logger = { error: vi.fn() };
    const chat = vi.fn(async () => "never");
    const answer = await answerQuestion(brokenDb, "a 40 inch grill", { store, generator: generator(chat), logger });
    expect(answer).toMatchObject({ text: CHAT_ERRORS.products, links: [], source: "error" });
    expect(chat).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it("answers a question with no product words from the facts, offline, without touching the catalog", async () => {
    const answer = await answerQuestion(brokenDb, "How long does shipping take?", {
      store,
      generator: generator(async () => null),
      logger: { error: vi.fn() },
    });
    expect(answer.source).toBe("offline");
    expect(answer.text).toContain("3-5 business days");
    expect(answer.text).toContain("free on orders over $49");
    expect(answer.links).toContainEqual({ label: "Shipping policy", href: "/shipping-policy" });
  });

  it("shows the spec's message when the language model fails", async () => {
    const logger = { error: vi.fn() };
    const answer = await answerQuestion(brokenDb, "what is your return policy", {
      store,
      generator: generator(async () => {
        throw new Error("timeout");
      }),
      logger,
    });
    expect(answer).toMatchObject({ text: CHAT_ERRORS.generation, source: "error" });
  });

  it("passes the question and recent history to the model and keeps its answer", async () => {
    const chat = vi.fn<TextGenerator["chat"]>(async () => "  Returns are accepted within 30 days of delivery.  ");
    const history = Array.from({ length: 10 }, (_, index) => ({
      sender: index % 2 === 0 ? ("user" as const) : ("server" as const),
      text: `message ${index}`,
      timestamp: new Date().toISOString(),
    }));
    const answer = await answerQuestion(brokenDb, "what is your return policy", {
      store,
      history,
      generator: generator(chat),
      logger: { error: vi.fn() },
    });
    expect(answer).toMatchObject({ text: "Returns are accepted within 30 days of delivery.", source: "model", links: [] });
    const input = chat.mock.calls[0][0];
    expect(input.system).toContain("within 30 days of delivery");
    expect(input.messages).toHaveLength(7);
    expect(input.messages[0]).toEqual({ role: "user", content: "message 4" });
    expect(input.messages[1]).toEqual({ role: "assistant", content: "message 5" });
    expect(input.messages.at(-1)).toEqual({ role: "user", content: "what is your return policy" });
    expect(input.maxTokens).toBeGreaterThan(0);
  });
});
