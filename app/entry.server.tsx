import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./db/unavailable.server";
import { BodyTooLargeError } from "./http/body-limits";
import { contentSecurityPolicy } from "./http/content-security-policy.server";
import { logError } from "./http/logger.server";
import { NonceContext } from "./http/nonce";
import { allowedMethods, keptRouteHeaders } from "./utils/allowed-methods.server";
import { isPublicAnswer } from "./utils/cache-control.server";
import { cachedPage, NONCE_PLACEHOLDER, notModified, pageCacheKey, pageHtml, storePage } from "./utils/page-cache.server";
import { CACHE_ANSWER_HEADER, type CacheAnswer } from "./utils/cache-answer";

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
  // The HTTP server applies the cache rule to the answer (server/app.ts); a page it leaves public gets an ETag.
  const isPublic = isPublicAnswer(request, responseStatusCode, responseHeaders);
  // A 503 (the database is unreachable) tells clients and crawlers when to come back; the page says it in words.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) {
    responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  const cacheKey = pageCacheKey(request, responseStatusCode, remixContext, true);
  if (cacheKey === null) return streamDocument(request, responseStatusCode, responseHeaders, remixContext, nonce, loadContext);

  // Same URL and same loader data: the same HTML (see utils/page-cache.server.ts), with this request's nonce put in.
  let page = cachedPage(cacheKey);
  if (page) {
    // The data the loaders produced for this request is not needed: the page has it.
    remixContext.serverHandoffStream?.cancel().catch(() => {});
    responseHeaders.set(CACHE_ANSWER_HEADER, "page" satisfies CacheAnswer);
  } else {
    const html = await renderDocument(remixContext, request.url, NONCE_PLACEHOLDER);
    page = storePage(cacheKey, html);
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (isPublic) {
    responseHeaders.set("ETag", page.etag);
    if (notModified(request, page.etag)) {
      // The browser keeps the page it has, whose scripts carry the nonce of its own policy: a new policy would block them.
      responseHeaders.delete("Content-Security-Policy");
      return new Response(null, { status: 304, headers: responseHeaders });
    }
  }
  return new Response(pageHtml(page, nonce), { status: responseStatusCode, headers: responseHeaders });
}

function documentElement(remixContext: EntryContext, url: string, nonce: string) {
  return (
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={url} abortDelay={streamTimeout} nonce={nonce} />
    </NonceContext.Provider>
  );
}

/** The whole document as a string (for the page cache): every Suspense boundary resolved. */
function renderDocument(remixContext: EntryContext, url: string, nonce: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const body = new PassThrough();
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    body.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    body.on("error", reject);
    const { pipe, abort } = renderToPipeableStream(documentElement(remixContext, url, nonce), {
      nonce,
      onAllReady() {
        pipe(body);
      },
      onShellError: reject,
      onError(error: unknown) {
        reject(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000).unref();
  });
}

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
    const { pipe, abort } = renderToPipeableStream(documentElement(remixContext, request.url, nonce), {
      nonce,
      [waitForAll ? "onAllReady" : "onShellReady"]() {
        shellRendered = true;
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(
          new Response(createReadableStreamFromReadable(body), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        );
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Before the shell, the error reaches handleError (or onShellError); after it, only here.
        if (shellRendered)
          logError("page streaming failed", error, { requestId: loadContext.requestId, path: new URL(request.url).pathname });
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // A request refused on purpose (404, 405...), or whose body the server cut off at its limit (answered 413), is no server
  // error worth a stack trace.
  if (request.signal.aborted || error instanceof BodyTooLargeError || (isRouteErrorResponse(error) && error.status < 500)) return;
  logError("request failed", error, { requestId: context?.requestId, method: request.method, path: new URL(request.url).pathname });
}
