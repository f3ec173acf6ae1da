import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./db/unavailable.server";
import { BodyTooLargeError } from "./http/body-limits";
import { contentSecurityPolicy } from "./http/content-security-policy.server";
import { logError } from "./observability/logger.server";
import { NonceContext } from "./http/nonce";
import { pipedDocument } from "./http/piped-document.server";
import { ServerPageScripts } from "./http/page-scripts.server";
import { ServerPageScriptsContext } from "./components/layout/page-scripts";
import { MarkupCacheContext } from "./components/markup-cache";
import { RequestIdContext } from "./http/request-id";
import { allowedMethods, keptRouteHeaders } from "./utils/allowed-methods.server";

export const streamTimeout = 10_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The baseline headers (nosniff, referrer, framing, HSTS...) come from the HTTP server on every response (server/);
  // a page adds its script policy, keyed to this request's nonce.
  const nonce = loadContext.cspNonce;
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(loadContext.store.config, nonce));
  if (responseStatusCode === 405 && !responseHeaders.has("Allow")) responseHeaders.set("Allow", allowedMethods(request, remixContext));
  for (const [name, value] of keptRouteHeaders(remixContext)) if (!responseHeaders.has(name)) responseHeaders.set(name, value);
  // The HTTP server applies the cache rule to every answer (server/app.ts).
  // A 503 (the database is unreachable) tells clients and crawlers when to come back; the page says it in words.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) {
    responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  // A server error's page names its request (the error page's reference, below): no cache may keep it for another.
  if (responseStatusCode >= 500) responseHeaders.set("Cache-Control", "no-store");
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (request.method === "HEAD") {
    // Remix sends no body for HEAD: nothing to render, and the loaders' data is not encoded for the page.
    remixContext.serverHandoffStream?.cancel().catch(() => {});
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return streamDocument(request, responseStatusCode, responseHeaders, remixContext, nonce, loadContext);
}

/**
 * The document, streamed: the shell as soon as it is ready (everything at once for bots), then
 * each Suspense boundary as its data arrives. React writes into the HTTP response itself
 * (http/piped-document.server.ts).
 */
function streamDocument(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  nonce: string,
  loadContext: AppLoadContext,
): Promise<Response> {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The response's body was cancelled: the client left, or the server had already answered (413 mid-body).
    let cancelled = false;
    // Ends whatever still waits for data; cleared once everything is rendered, so a finished page is not held until then.
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerPageScriptsContext.Provider value={ServerPageScripts}>
          <MarkupCacheContext.Provider value={loadContext.markupCache?.keptMarkup ?? null}>
            {/* Only a server error's page shows its request id: a 5xx is never public (no-store above, utils/cache-control.server.ts). */}
            <RequestIdContext.Provider value={responseStatusCode >= 500 ? loadContext.requestId : undefined}>
              <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
            </RequestIdContext.Provider>
          </MarkupCacheContext.Provider>
        </ServerPageScriptsContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
          if (!waitForAll) resolve(pipedDocument(pipe, cancel, { headers: responseHeaders, status: responseStatusCode }));
        },
        onAllReady() {
          clearTimeout(timeout);
          if (waitForAll) resolve(pipedDocument(pipe, cancel, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Before the shell, the error reaches handleError (or onShellError); after it, only here. A render
          // stopped because nobody reads it any more is the client's doing, not an error.
          if (shellRendered && !cancelled && !request.signal.aborted)
            logError("page streaming failed", error, { requestId: loadContext.requestId, path: new URL(request.url).pathname });
        },
      },
    );
    const cancel = () => {
      cancelled = true;
      abort();
    };
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // A request refused on purpose (404, 405...), or whose body the server cut off at its limit (answered 413), is no server
  // error worth a stack trace.
  if (request.signal.aborted || error instanceof BodyTooLargeError || (isRouteErrorResponse(error) && error.status < 500)) return;
  logError("request failed", error, { requestId: context?.requestId, method: request.method, path: new URL(request.url).pathname });
}
