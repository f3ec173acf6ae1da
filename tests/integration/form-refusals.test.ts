import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { action as cartAction } from "~/routes/cart";
import { action as chatbotAction } from "~/routes/chatbot";
import { action as checkoutAction } from "~/routes/checkout";
import { action as contactAction } from "~/routes/contact";
import { action as seasoningCheckoutAction } from "~/routes/custom-product-checkout";
import { action as loginAction } from "~/routes/_staff.login";
import { action as newsletterAction } from "~/routes/newsletter";
import { action as notifyMeAction } from "~/routes/notify-me";
import { action as singleCheckoutAction } from "~/routes/single-product-checkout";
import type { StoreRuntime } from "~/store-runtime";
import type { TestDatabase } from "../support/test-database";
import { formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

let runtime: StoreRuntime;

/**
 * Every form action reads its form through app/utils/forms.server.ts: a
 * wrong method, a body that is not a form, an oversized one or an unknown
 * intent is refused with a readable 4xx before anything is read from or
 * written to the database (the database here throws if it is touched).
 */
type Action = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<unknown>;

const FORM_ROUTES: Array<[string, Action]> = [
  ["/cart", cartAction as Action],
  ["/checkout", checkoutAction as Action],
  ["/single-product-checkout", singleCheckoutAction as Action],
  ["/custom-product-checkout", seasoningCheckoutAction as Action],
  ["/contact", contactAction as Action],
  ["/newsletter", newsletterAction as Action],
  ["/notify-me", notifyMeAction as Action],
  ["/chatbot", chatbotAction as Action],
  ["/login", loginAction as Action],
];

async function refusal(action: Action, request: Request): Promise<Response> {
  try {
    await action({ request, params: {}, context: testContext(runtime) });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error(`${request.method} ${request.url} was not refused`);
}

const untouchable = new Proxy(
  {},
  {
    get(_target, property) {
      // Handing the database around is fine (an `await` looks for a `then`), using it is not.
      if (property === "then") return undefined;
      throw new Error("a refused form must not reach the database");
    },
  },
) as TestDatabase["db"];

describe("refused form posts", () => {
  beforeAll(() => {
    runtime = testRuntime({ kind: "pglite", db: untouchable } as unknown as TestDatabase);
  });

  describe.each(FORM_ROUTES)("%s", (path, action) => {
    it.each(["PUT", "DELETE", "PATCH"])("answers %s with 405 and Allow: GET, HEAD, POST", async (method) => {
      const response = await refusal(action, new Request(`${TEST_ORIGIN}${path}`, { method, body: formData({ intent: "add" }) }));
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
    });

    it.each([
      ["application/json", '{"email":"dana@example.com"}'],
      ["text/plain", "email=dana@example.com"],
    ])("answers a %s body with a readable 415", async (type, body) => {
      const response = await refusal(
        action,
        new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body, headers: { "Content-Type": type } }),
      );
      expect(response.status).toBe(415);
      expect(await response.text()).toMatch(/accepts only a web form/);
    });

    it("answers a multipart body without parts with 400, not 500", async () => {
      const request = new Request(`${TEST_ORIGIN}${path}`, {
        method: "POST",
        body: "",
        headers: { "Content-Type": "multipart/form-data; boundary=nothing-here" },
      });
      const response = await refusal(action, request);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("That form could not be read. Please go back and send it again.");
    });

    it("answers a form over 64 KB with 413", async () => {
      const body = new URLSearchParams({ intent: "message", message: "x".repeat(70 * 1024) });
      const response = await refusal(action, new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body }));
      expect(response.status).toBe(413);
      expect(await response.text()).toMatch(/larger than 64 KB/);
    });
  });

  it.each<[string, Action]>([
    ["/cart", cartAction as Action],
    ["/single-product-checkout", singleCheckoutAction as Action],
    ["/custom-product-checkout", seasoningCheckoutAction as Action],
    ["/chatbot", chatbotAction as Action],
  ])("answers an unknown intent at %s with a readable 400", async (path, action) => {
    const request = new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: formData({ intent: "launch", value: "x" }) });
    const response = await refusal(action, request);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("This page does not know the action “launch”. Please go back and try again.");
  });
});
