import type { ActionFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { readBodyWithin } from "./forms.server";
import { cleanText } from "./request-text";
import { isCrossSiteRequest } from "./same-origin.server";

/**
 * The spec's JSON routes share one way to read a request and to say
 * no: a JSON body `{ error }` with a 4xx status, never a 500 for anything a
 * client can send.
 */

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return jsonResponse({ error, ...extra }, status, headers);
}

/** The one answer to anything but POST on a POST-only route (the JSON routes and the providers' webhooks): 405 with `Allow`. */
export function methodNotAllowed(): Response {
  return jsonError(405, "Use POST.", {}, { Allow: "POST" });
}

export function tooManyRequests(decision: { retryAfterMs: number }, error = "Too many requests. Please wait a minute and try again.") {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return jsonError(429, error, {}, { "Retry-After": String(seconds) });
}

/**
 * Only POST, and only from the store's own pages, may call a route that changes something. A
 * browser always sends `Origin` on a cross-site POST (and `Sec-Fetch-Site`);
 * a request without either comes from a program, not a visitor's browser,
 * so there is nothing to forge.
 */
export function refuseUnlessSameSitePost(request: Request, publicBaseUrl: string | undefined): Response | null {
  if (request.method !== "POST") return methodNotAllowed();
  return isCrossSiteRequest(request, publicBaseUrl) ? crossSite() : null;
}

function crossSite(): Response {
  return jsonError(403, "Cross-site requests are not allowed.");
}

export type JsonPayload<T> = { ok: true; data: T } | { ok: false; response: Response };

/**
 * Reads and validates a JSON body: 415 for another content type, 413 for a body
 * over `maxBytes` (declared or actually sent), 400 for malformed JSON or a
 * payload the schema refuses (missing, wrong or extra fields), naming the field.
 */
export async function readJsonPayload<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  { maxBytes = DEFAULT_MAX_BODY_BYTES }: { maxBytes?: number } = {},
): Promise<JsonPayload<z.output<Schema>>> {
  const fail = (status: number, error: string) => ({ ok: false as const, response: jsonError(status, error) });

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(?:;|$)/i.test(contentType)) return fail(415, "Send the payload as application/json.");

  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return fail(413, `The payload is larger than ${maxBytes} bytes.`);

  const body = await readBodyWithin(request, maxBytes);
  const text = body === null ? null : new TextDecoder().decode(body);
  if (text === null) return fail(413, `The payload is larger than ${maxBytes} bytes.`);

  let json: unknown;
  try {
    // Every string of the payload, keys and values, loses its control characters (request-text.ts).
    json = JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? cleanText(value) : value));
  } catch {
    return fail(400, "The payload is not valid JSON.");
  }

  const parsed = schema.safeParse(json);
  if (!parsed.success) return fail(400, describeIssue(parsed.error.issues[0]));
  return { ok: true, data: parsed.data };
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "The payload is not valid.";
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length > 0 ? ` in ${issue.path.join(".")}` : "";
    return `Unexpected field${issue.keys.length > 1 ? "s" : ""}${where}: ${issue.keys.join(", ")}.`;
  }
  const field = issue.path.join(".");
  if (field && issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return `${field} is required.`;
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** What a rate limit decides (security/rate-limit.server.ts, chat/rate-limit.server.ts). */
interface LimitDecision {
  allowed: boolean;
  retryAfterMs: number;
}

export interface JsonActionOptions {
  /** The largest body read (DEFAULT_MAX_BODY_BYTES unless said). */
  maxBytes?: number;
  /** Counted once the payload is valid, so a malformed request costs the sender nothing; refused with 429. */
  rateLimit?: (args: ActionFunctionArgs) => Promise<LimitDecision>;
  /** What the 429 says, if not the usual sentence. */
  rateLimitMessage?: string;
}

/**
 * The action of a JSON route: POST from the store's own pages only (405, 403),
 * a JSON body within `maxBytes` that `schema` accepts (415, 413, 400), the rate
 * limit if there is one (429), then `handle` with the parsed payload. Every
 * refusal is the route's JSON `{ error }`.
 */
export function jsonAction<Schema extends z.ZodType>(
  schema: Schema,
  handle: (args: ActionFunctionArgs & { payload: z.output<Schema> }) => Promise<Response>,
  { maxBytes, rateLimit, rateLimitMessage }: JsonActionOptions = {},
): (args: ActionFunctionArgs) => Promise<Response> {
  return async (args) => {
    const refused = refuseUnlessSameSitePost(args.request, args.context.store.config.PUBLIC_BASE_URL);
    if (refused) return refused;
    const parsed = await readJsonPayload(args.request, schema, { maxBytes });
    if (!parsed.ok) return parsed.response;
    if (rateLimit) {
      const limit = await rateLimit(args);
      if (!limit.allowed) return tooManyRequests(limit, rateLimitMessage);
    }
    return handle({ ...args, payload: parsed.data });
  };
}
