import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DEFAULT_MAX_BODY_BYTES, jsonAction, jsonResponse } from "./json-route.server";

const context = { store: { config: { PUBLIC_BASE_URL: "https://shop.example" } } } as unknown as AppLoadContext;
const schema = z.strictObject({ name: z.string().min(1) });

function post(body: string, headers: Record<string, string> = {}): ActionFunctionArgs {
  const request = new Request("https://shop.example/api/thing", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...headers },
  });
  return { request, params: {}, context };
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as unknown, cacheControl: response.headers.get("Cache-Control") };
}

describe("jsonAction", () => {
  const handle = vi.fn(({ payload }: { payload: { name: string } }) => Promise.resolve(jsonResponse({ hello: payload.name })));

  it("hands the parsed payload to the route", async () => {
    const action = jsonAction(schema, handle);
    expect(await answer(await action(post('{"name":"Ada"}')))).toEqual({ status: 200, body: { hello: "Ada" }, cacheControl: "no-store" });
  });

  it("refuses, as JSON { error }, another method, another site, another type, a body too large or not the schema's", async () => {
    const action = jsonAction(schema, handle, { maxBytes: 32 });
    handle.mockClear();
    const get = { ...post(""), request: new Request("https://shop.example/api/thing") };
    const refusals = [
      [get, 405, "Use POST."],
      [post('{"name":"Ada"}', { "Sec-Fetch-Site": "cross-site" }), 403, "Cross-site requests are not allowed."],
      [post("name=Ada", { "Content-Type": "application/x-www-form-urlencoded" }), 415, "Send the payload as application/json."],
      [post(JSON.stringify({ name: "x".repeat(40) })), 413, "The payload is larger than 32 bytes."],
      [post("{"), 400, "The payload is not valid JSON."],
      [post('{"name":"Ada","admin":true}'), 400, "Unexpected field: admin."],
    ] as const;
    for (const [args, status, error] of refusals) {
      expect(await answer(await action(args)), error).toEqual({ status, body: { error }, cacheControl: "no-store" });
    }
    expect((await action(get)).headers.get("Allow")).toBe("POST");
    expect(handle).not.toHaveBeenCalled();
  });

  it("reads at most DEFAULT_MAX_BODY_BYTES unless told", async () => {
    const action = jsonAction(schema, handle);
    const response = await action(post(JSON.stringify({ name: "x".repeat(DEFAULT_MAX_BODY_BYTES) })));
    expect(response.status).toBe(413);
  });

  it("counts the rate limit only for a valid payload, and refuses with 429 and Retry-After", async () => {
    const rateLimit = vi.fn(() => Promise.resolve({ allowed: false, retryAfterMs: 2_500 }));
    const action = jsonAction(schema, handle, { rateLimit, rateLimitMessage: "Slow down." });
    expect((await action(post("{"))).status).toBe(400);
    expect(rateLimit).not.toHaveBeenCalled();
    const limited = await action(post('{"name":"Ada"}'));
    expect(await answer(limited)).toEqual({ status: 429, body: { error: "Slow down." }, cacheControl: "no-store" });
    expect(limited.headers.get("Retry-After")).toBe("3");
    expect(rateLimit).toHaveBeenCalledOnce();
  });
});
