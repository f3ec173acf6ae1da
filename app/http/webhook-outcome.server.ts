import type { ActionFunctionArgs } from "@remix-run/node";
import { logError } from "~/observability/logger.server";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";
import { methodNotAllowed } from "~/utils/json-route.server";

/**
 * What handling a provider's webhook delivery came to, as the domain says it (app/payments/webhooks.server.ts,
 * app/orders/shipping.server.ts); `webhookAction` turns it into the answer the provider reads: 200 once
 * received (handled or with nothing to do), 400 for a delivery refused (unsigned, mis-signed, malformed),
 * 404 for a webhook that is not configured where the provider is told so, and 503 with the provider
 * retrying later (Retry-After when the store knows when).
 */
export type WebhookOutcome =
  | { kind: "received"; handled?: boolean; outcome?: string }
  | { kind: "refused"; error: string }
  | { kind: "not-configured"; error: string }
  | { kind: "retry"; error: string; retryAfterMs?: number };

const STATUS: Record<WebhookOutcome["kind"], number> = { received: 200, refused: 400, "not-configured": 404, retry: 503 };

function webhookResponse(outcome: WebhookOutcome): Response {
  const status = STATUS[outcome.kind];
  switch (outcome.kind) {
    case "received": {
      const { handled, outcome: result } = outcome;
      return Response.json(
        { received: true, ...(handled === undefined ? {} : { handled }), ...(result === undefined ? {} : { outcome: result }) },
        { status },
      );
    }
    case "retry": {
      const headers = outcome.retryAfterMs === undefined ? undefined : { "Retry-After": String(retryAfterSeconds(outcome.retryAfterMs)) };
      return Response.json({ error: outcome.error }, { status, headers });
    }
    default:
      return Response.json({ error: outcome.error }, { status });
  }
}

/**
 * A provider's webhook route: POST only, the raw body (signatures are made over it) handed to `handle`,
 * and a handler that throws (the database away) answered 503, so the provider delivers again.
 */
export function webhookAction(
  provider: string,
  handle: (store: StoreRuntime, headers: Headers, rawBody: string) => Promise<WebhookOutcome>,
) {
  return async ({ request, context }: ActionFunctionArgs): Promise<Response> => {
    if (request.method !== "POST") return methodNotAllowed();
    const rawBody = await request.text();
    try {
      return webhookResponse(await handle(context.store, request.headers, rawBody));
    } catch (error) {
      logError(`${provider} webhook could not be handled`, error);
      return webhookResponse({ kind: "retry", error: "Temporarily unavailable." });
    }
  };
}
