import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { answerQuestion } from "~/chat/answer.server";
import { CHAT_ERRORS, type ChatMessage } from "~/chat/conversation";
import { readConversation } from "~/chat/conversation-cookie.server";
import { replyToOption } from "~/chat/flow.server";
import {
  buildSystemPrompt,
  displayedBrandNames,
  findProductMatches,
  SYSTEM_PROMPT_MAX_CHARS,
  topCategories,
} from "~/chat/grounding.server";
import { CHAT_RATE_LIMIT, RATE_LIMIT_MESSAGE } from "~/chat/rate-limit.server";
import { getProductByKey } from "~/catalog/queries.server";
import { action, loader } from "~/routes/chatbot";
import { createLocalTextFormatter } from "~/services/text/local-formatter.server";
import { createOpenAITextGenerator } from "~/services/text/openai-generator.server";
import { chatCompletion, FAKE_OPENAI_REPLY, startFakeOpenAI, type FakeServer } from "../fakes/openai";
import type { StoreRuntime } from "~/store-runtime";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, postRequest, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

const store = { name: "Outdoor Kitchen Outlet", phone: "(877) 555-0142", email: "sales@example.com" };
const offline = createLocalTextFormatter();
const QUESTION = "do you have a 40 inch natural gas grill";

type DataResult<T> = { data: T; init: { status?: number; headers?: HeadersInit } | null };

describe.each(testDatabaseKinds())("chat assistant on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { catalog: true });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** Every product link of an answer leads to a product that exists. */
  async function expectExistingProducts(links: readonly { href: string; label: string }[]) {
    const productLinks = links.filter((link) => link.href.startsWith("/product/"));
    expect(productLinks.length).toBeGreaterThan(0);
    for (const link of productLinks) {
      const key = decodeURIComponent(link.href.slice("/product/".length));
      expect(await getProductByKey(database.db, key), link.href).not.toBeNull();
    }
    return productLinks;
  }

  describe("offline answers", () => {
    it(`answers '${QUESTION}' with real 40-inch natural gas grills`, async () => {
      const answer = await answerQuestion(database.db, QUESTION, { store, generator: offline });
      expect(answer.source).toBe("offline");
      expect(answer.text).toContain("Here are products from our catalog that match “40-inch natural gas grill”");
      expect(answer.text).not.toMatch(/\bAI\b|language model/i);
      const links = await expectExistingProducts(answer.links);
      expect(links.length).toBeLessThanOrEqual(5);
      for (const link of links) {
        expect(link.label).toMatch(/\b40-Inch\b/i);
        expect(link.label).toMatch(/natural gas/i);
        expect(link.label).toMatch(/grill/i);
      }
      expect(answer.links).toContainEqual({
        label: expect.stringMatching(/^See all \d+ matches$/),
        href: "/finding/40-inch%20natural%20gas%20grill",
      });
    });

    it("finds the same products however the size is written, and never 40 inside another number", async () => {
      const expected = (await findProductMatches(database.db, QUESTION)).matches.map((match) => match.key);
      for (const question of ['40" natural gas grills?', "natural gas grill 40in", "NG grill, 40-inch please"]) {
        expect(
          (await findProductMatches(database.db, question)).matches.map((match) => match.key),
          question,
        ).toEqual(expected);
      }
      const bare = await findProductMatches(database.db, "40 natural gas grill");
      expect(bare.matches.every((match) => /(^|[^0-9.])40([^0-9]|$)/.test(match.title))).toBe(true);
    });

    it("puts products before their accessories and follows a price cap", async () => {
      const grills = await findProductMatches(database.db, "blaze grill");
      expect(grills.matches[0].title).not.toMatch(/\bcover\b/i);
      const cheap = await findProductMatches(database.db, "natural gas grill under $1,500");
      expect(cheap.matches.length).toBeGreaterThan(0);
      expect(cheap.matches.every((match) => match.priceCents <= 150_000)).toBe(true);
      expect(cheap.label).toBe("natural gas grill under $1,500.00");
    });

    it("says which words no product has and shows the closest products", async () => {
      const answer = await answerQuestion(database.db, "a flux capacitor patio heater", { store, generator: offline });
      expect(answer.text).toContain("No product in our catalog mentions “flux capacitor”");
      await expectExistingProducts(answer.links);
      const closest = await answerQuestion(database.db, "blaze propane pizza oven kamado", { store, generator: offline });
      expect(closest.text).toMatch(/closest|match/);
    });

    it("points to browsing and the team when nothing matches", async () => {
      const answer = await answerQuestion(database.db, "hovercraft", { store, generator: offline });
      expect(answer.text).toContain("I couldn't find products matching “hovercraft”");
      expect(answer.text).toContain(store.phone);
      expect(answer.links).toEqual([{ label: "Contact page", href: "/contact" }]);
      expect(answer.options.map((option) => option.value)).toEqual(["products", "contact", "delivery"]);
    });

    it("answers policy questions from the facts, without products", async () => {
      const shipping = await answerQuestion(database.db, "How long does shipping take to Texas?", { store, generator: offline });
      expect(shipping.text).toContain("3-5 business days");
      expect(shipping.links.some((link) => link.href.startsWith("/product/"))).toBe(false);
      const returns = await answerQuestion(database.db, "Can I return a grill?", { store, generator: offline });
      expect(returns.text).toContain("30 days of delivery");
      const contact = await answerQuestion(database.db, "what is your phone number", { store, generator: offline });
      expect(contact.text).toContain(store.phone);
      expect(contact.links).toContainEqual({ label: "Contact page", href: "/contact" });
    });
  });

  describe("quick options", () => {
    it("walks Products, a brand, a product", async () => {
      const deps = { store };
      const brands = await replyToOption(database.db, "products", deps);
      expect(brands?.reply.options).toHaveLength(20);

      const blaze = await replyToOption(database.db, "brand:blaze", deps);
      const options = blaze?.reply.options ?? [];
      expect(options).toHaveLength(10);
      expect(blaze?.reply.text).toMatch(/^Here are 10 of our \d+ Blaze products/);
      expect(blaze?.reply.links).toEqual([{ label: "More from Blaze", href: "/products/blaze/all" }]);
      for (const option of options) {
        const product = await getProductByKey(database.db, option.value.replace(/^product:/, ""));
        expect(product?.brand).toBe("blaze");
      }

      const chosen = await replyToOption(database.db, options[0].value, deps);
      const key = options[0].value.replace(/^product:/, "");
      expect(chosen?.delayMs).toBe(500);
      expect(chosen?.reply.links).toEqual([{ label: expect.any(String), href: `/product/${key}` }]);
      expect(await replyToOption(database.db, "product:blaze-does-not-exist", deps)).toBeNull();
    });
  });

  describe("with a language model", () => {
    let fake: FakeServer;
    beforeAll(async () => {
      fake = await startFakeOpenAI();
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());
    const model = () => createOpenAITextGenerator({ apiKey: "sk-test-123", model: "gpt-4o-mini", baseURL: `${fake.url}/v1` });

    it("sends a system prompt holding the store's facts and the matched products, and links those products", async () => {
      const history: ChatMessage[] = [{ sender: "server", text: "Hi! Welcome.", timestamp: new Date().toISOString() }];
      const answer = await answerQuestion(database.db, QUESTION, { store, generator: model(), history });
      expect(answer).toMatchObject({ text: FAKE_OPENAI_REPLY, source: "model" });

      expect(fake.requests).toHaveLength(1);
      const body = fake.requests[0].body as { messages: Array<{ role: string; content: string }>; max_completion_tokens: number };
      const [system, ...conversation] = body.messages;
      expect(system.role).toBe("system");
      expect(system.content.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
      for (const fact of [
        store.phone,
        store.email,
        "free on orders over $49",
        "3-5 business days",
        "30 days of delivery",
        "Blaze",
        "Twin Eagles",
      ]) {
        expect(system.content).toContain(fact);
      }
      const matches = (await findProductMatches(database.db, QUESTION)).matches;
      expect(matches.length).toBeGreaterThan(0);
      for (const match of matches) {
        expect(system.content).toContain(match.title);
        expect(system.content).toContain(match.path);
      }
      expect(conversation).toEqual([
        { role: "assistant", content: "Hi! Welcome." },
        { role: "user", content: QUESTION },
      ]);
      expect(body.max_completion_tokens).toBeGreaterThan(0);

      const links = await expectExistingProducts(answer.links);
      expect(links.map((link) => link.href)).toEqual(matches.map((match) => match.path));
    });

    it("shows the spec's message when the model fails", async () => {
      fake.respondWith(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
      const answer = await answerQuestion(database.db, QUESTION, { store, generator: model(), logger: { error: vi.fn() } });
      expect(answer).toMatchObject({ text: CHAT_ERRORS.generation, links: [], source: "error" });
    });

    it("keeps a long answer bounded", async () => {
      fake.respondWith(200, chatCompletion("word ".repeat(2_000)));
      const answer = await answerQuestion(database.db, "hello", { store, generator: model() });
      expect(answer.text.length).toBeLessThanOrEqual(1_200);
    });

    it("builds a bounded prompt from the real catalog's categories", async () => {
      const categories = await topCategories(database.db);
      expect(categories.length).toBe(40);
      expect(categories).not.toContain("Home");
      const prompt = buildSystemPrompt({
        store,
        brands: displayedBrandNames(),
        categories,
        catalog: await findProductMatches(database.db, QUESTION),
      });
      expect(prompt.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
      expect(prompt).toContain(categories[0]);
    });
  });

  describe("the /chatbot route", () => {
    beforeEach(() => {
      runtime = testRuntime(database);
      // Limits live in the database: each test chats from its own address.
      visitorAddress = `198.51.100.${++visitorCount}`;
    });
    let visitorCount = 0;
    let visitorAddress = "198.51.100.0";

    const get = (cookie?: string) => new Request(`${TEST_ORIGIN}/chatbot`, { headers: cookie ? { Cookie: cookie } : {} });

    async function post(values: Record<string, string>, cookie?: string) {
      return (await action({
        request: postRequest("/chatbot", values, cookie),
        params: {},
        context: testContext(runtime, { clientAddress: visitorAddress }),
      })) as Response | DataResult<{ seq: string; ok: boolean; delayMs: number }>;
    }

    it("welcomes a new visitor with the three quick options and gives the visit an id", async () => {
      const result = (await loader({ request: get(), params: {}, context: testContext(runtime) })) as unknown as DataResult<{
        messages: ChatMessage[];
      }>;
      expect(result.data.messages).toHaveLength(1);
      expect(result.data.messages[0].options?.map((option) => option.label)).toEqual(["Products", "Contact", "Delivery"]);
      const headers = new Headers(result.init?.headers);
      expect(headers.get("Set-Cookie")).toMatch(/^chat=/);
      expect(headers.get("Cache-Control")).toContain("no-store");
    });

    it("without script: posts, redirects to the newest message and keeps the conversation in the cookie", async () => {
      const response = (await post({ intent: "option", value: "products" })) as Response;
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe("/chatbot#latest");
      let cookie = cookieFrom(response.headers.get("Set-Cookie"));

      const blaze = (await post({ intent: "option", value: "brand:blaze" }, cookie)) as Response;
      cookie = cookieFrom(blaze.headers.get("Set-Cookie"));
      const question = (await post({ intent: "message", text: `  ${QUESTION}  ` }, cookie)) as Response;
      cookie = cookieFrom(question.headers.get("Set-Cookie"));

      const { messages } = await readConversation(runtime, get(cookie));
      expect(messages.map((message) => [message.sender, message.text.slice(0, 30)])).toEqual([
        ["server", expect.stringMatching(/^Hi! Welcome/)],
        ["user", "Products"],
        ["server", "Which brand are you interested"],
        ["user", "Blaze"],
        ["server", expect.stringMatching(/^Here are 10 of our/)],
        ["user", QUESTION.slice(0, 30)],
        ["server", expect.stringMatching(/^Here are products from our cat/)],
      ]);
      await expectExistingProducts(messages.at(-1)?.links ?? []);
      const loaded = (await loader({ request: get(cookie), params: {}, context: testContext(runtime) })) as unknown as DataResult<{
        messages: ChatMessage[];
      }>;
      expect(loaded.data.messages).toEqual(messages);
    });

    it("with script: answers with data and the product reply's delay", async () => {
      const first = (await post({ intent: "option", value: "brand:blaze", mode: "fetch", seq: "7" })) as DataResult<{
        delayMs: number;
        seq: string;
      }>;
      expect(first.data).toEqual({ seq: "7", ok: true, delayMs: 0 });
      const cookie = cookieFrom(new Headers(first.init?.headers).get("Set-Cookie"));
      const { messages } = await readConversation(runtime, get(cookie));
      const productOption = messages.at(-1)?.options?.[0];
      const second = (await post({ intent: "option", value: productOption?.value ?? "", mode: "fetch", seq: "8" }, cookie)) as DataResult<{
        delayMs: number;
      }>;
      expect(second.data).toMatchObject({ seq: "8", ok: true, delayMs: 500 });
      const after = await readConversation(runtime, get(cookieFrom(new Headers(second.init?.headers).get("Set-Cookie"))));
      expect(after.messages.at(-2)).toMatchObject({ sender: "user", text: productOption?.label });
      expect(after.messages.at(-1)?.links?.[0].href).toMatch(/^\/product\/blaze-/);
    });

    it("does not send empty text, refuses unknown options, and cuts long input", async () => {
      const empty = (await post({ intent: "message", text: " \n ", mode: "fetch", seq: "1" })) as DataResult<{ ok: boolean }>;
      expect(empty.init?.status).toBe(400);
      expect(new Headers(empty.init?.headers).get("Set-Cookie")).toBeNull();
      const unknown = (await post({ intent: "option", value: "brand:nope", mode: "fetch", seq: "2" })) as DataResult<{ ok: boolean }>;
      expect(unknown.init?.status).toBe(400);
      const bad = await post({ intent: "launch" }).catch((thrown: unknown) => thrown as Response);
      expect(bad).toBeInstanceOf(Response);
      expect((bad as Response).status).toBe(400);

      const long = (await post({ intent: "message", text: `grill ${"x".repeat(5_000)}` })) as Response;
      const { messages } = await readConversation(runtime, get(cookieFrom(long.headers.get("Set-Cookie"))));
      const sent = messages.find((message) => message.sender === "user");
      expect(Array.from(sent?.text ?? "").length).toBeLessThanOrEqual(500);
    });

    it("rate limits a visitor and says so once", async () => {
      let cookie = cookieFrom(
        new Headers(
          ((await loader({ request: get(), params: {}, context: testContext(runtime) })) as unknown as DataResult<unknown>).init?.headers,
        ).get("Set-Cookie"),
      );
      for (let index = 0; index < CHAT_RATE_LIMIT; index += 1) {
        const ok = (await post({ intent: "option", value: "contact", mode: "fetch", seq: String(index) }, cookie)) as DataResult<{
          ok: boolean;
        }>;
        expect(ok.data.ok).toBe(true);
        cookie = cookieFrom(new Headers(ok.init?.headers).get("Set-Cookie"));
      }
      for (let index = 0; index < 2; index += 1) {
        const limited = (await post({ intent: "message", text: "hello?", mode: "fetch", seq: "99" }, cookie)) as DataResult<{
          ok: boolean;
        }>;
        expect(limited.init?.status).toBe(429);
        expect(new Headers(limited.init?.headers).get("Retry-After")).toMatch(/^\d+$/);
        cookie = cookieFrom(new Headers(limited.init?.headers).get("Set-Cookie"));
      }
      const { messages } = await readConversation(runtime, get(cookie));
      expect(messages.filter((message) => message.text === RATE_LIMIT_MESSAGE)).toHaveLength(1);
      // Another visitor may still chat.
      const other = (await post({ intent: "option", value: "delivery", mode: "fetch", seq: "1" })) as DataResult<{ ok: boolean }>;
      expect(other.data.ok).toBe(true);
    });

    it("starts over, keeping the visit's id", async () => {
      const first = (await post({ intent: "option", value: "contact" })) as Response;
      const cookie = cookieFrom(first.headers.get("Set-Cookie"));
      const before = await readConversation(runtime, get(cookie));
      const reset = (await post({ intent: "reset" }, cookie)) as Response;
      expect(reset.status).toBe(303);
      const after = await readConversation(runtime, get(cookieFrom(reset.headers.get("Set-Cookie"))));
      expect(after).toEqual({ id: before.id, messages: [] });
    });
  });

  describe("buying guide questions", () => {
    it("which of these two has more grilling area: names both, says which, links both and the comparison", async () => {
      const answer = await answerQuestion(
        database.db,
        "which of these two has more grilling area: the Blaze Premium LTE 32 or the Blaze Premium LTE 40",
        { store, generator: offline },
      );
      expect(answer.source).toBe("offline");
      expect(answer.text).toMatch(/^The Blaze Premium LTE 40-Inch .* has more grilling area\./);
      expect(answer.text).toMatch(/sq in/);
      await expectExistingProducts(answer.links);
      expect(answer.links.some((link) => link.href.startsWith("/compare?items="))).toBe(true);

      // "these two" are the last two products the chat linked.
      const history: ChatMessage[] = [
        {
          sender: "server",
          text: "Two grills",
          timestamp: new Date().toISOString(),
          links: [
            { label: "LTE 32", href: "/product/blaze-2973501" },
            { label: "LTE 40", href: "/product/blaze-2973513" },
          ],
        },
      ];
      const followUp = await answerQuestion(database.db, "which of these two has more grilling area?", {
        store,
        generator: offline,
        history,
      });
      expect(followUp.text).toMatch(/has more grilling area/);
    });

    it("what cover fits the Blaze Premium LTE 32: covers for that grill, with links", async () => {
      const answer = await answerQuestion(database.db, "what cover fits the Blaze Premium LTE 32", { store, generator: offline });
      expect(answer.text).toMatch(/^This cover fits the Blaze Premium LTE 32-Inch/);
      const links = await expectExistingProducts(answer.links);
      expect(links.some((link) => /Cover for 32-Inch/i.test(link.label))).toBe(true);
      expect(links.some((link) => /40-Inch/.test(link.label) && /Cover/.test(link.label))).toBe(false);
    });

    it("offers as covers only products filed under covers, never a tank-hole cover or a gauge's cover plate", async () => {
      for (const question of [
        "what cover fits the Blaze Premium LTE 32",
        "what cover fits the Blaze Prelude LBM 32",
        "what cover fits the Blaze Professional LUX 44",
      ]) {
        const answer = await answerQuestion(database.db, question, { store, generator: offline });
        const offered = (await expectExistingProducts(answer.links)).slice(0, -1); // the last link is the grill itself
        for (const link of offered) {
          const product = await getProductByKey(database.db, decodeURIComponent(link.href.slice("/product/".length)));
          expect(
            product?.categories.some((name) => /\bcovers\b/i.test(name)),
            `${question}: ${link.label}`,
          ).toBe(true);
        }
      }
    });

    it("built-in grill for a 30 by 21 inch opening: grills whose cutout fits, and the finder", async () => {
      const answer = await answerQuestion(database.db, "built-in grill for a 30 by 21 inch opening", { store, generator: offline });
      // No grill's cutout is within 1 in of 30 × 21, so the answer says so and widens the gap to 2 in.
      expect(answer.text).toMatch(
        /^None fits within 1 in; allowing a gap of up to 2 in .* built-in grills fit a 30 × 21 in opening; the snuggest: /,
      );
      await expectExistingProducts(answer.links);
      expect(answer.links.at(-1)?.href).toBe("/fit?width=30&depth=21&type=grills&gap=2");
    });

    it("heater for a 400 square foot covered patio: the need, the rule, heaters", async () => {
      const answer = await answerQuestion(database.db, "heater for a 400 square foot covered patio", { store, generator: offline });
      expect(answer.text).toContain("A 400 sq ft covered patio needs about 8,000 W or 28,000 BTU");
      expect(answer.text).toContain("400 sq ft × 20 W per sq ft for a covered patio");
      await expectExistingProducts(answer.links);
      expect(answer.links.at(-1)?.href).toBe("/heater-helper?area=400&covered=covered&climate=moderate");
    });

    describe("with a language model", () => {
      let fake: FakeServer;
      beforeAll(async () => {
        fake = await startFakeOpenAI();
      });
      afterAll(() => fake.close());

      it("passes the same facts to the model as context, within the prompt's cap, and keeps the guide's links", async () => {
        const generator = createOpenAITextGenerator({ apiKey: "sk-test-123", model: "gpt-4o-mini", baseURL: `${fake.url}/v1` });
        const answer = await answerQuestion(database.db, "heater for a 400 square foot covered patio", { store, generator });
        expect(answer).toMatchObject({ text: FAKE_OPENAI_REPLY, source: "model" });
        const body = fake.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
        const system = body.messages[0].content;
        expect(system.length).toBeLessThanOrEqual(SYSTEM_PROMPT_MAX_CHARS);
        expect(system).toContain("Buying guide facts for this question");
        expect(system).toContain("needs about 8,000 W or 28,000 BTU");
        expect(answer.links.at(-1)?.href).toBe("/heater-helper?area=400&covered=covered&climate=moderate");
      });
    });
  });
});
