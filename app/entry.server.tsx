import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { registerStoreIdentity } from "./components/layout/store-identity";
import type { StoreLoadContext } from "./http/load-context";
import { ConfigError, getConfig, publicConfig } from "./config.server";
import { allowedMethods } from "./utils/allowed-methods.server";
import { applyCachePolicy } from "./utils/cache-control.server";
import { cachedPage, NONCE_PLACEHOLDER, notModified, pageCacheKey, pageHtml, storePage } from "./utils/page-cache.server";
import { getRuntime } from "./runtime.server";

export const streamTimeout = 10_000;

startOrExit();

/**
 * Validate configuration and open the database as soon as the server loads
 * this module, so a bad key stops `npm start` with one line, not a stack trace.
 */
function startOrExit() {
  try {
    registerStoreIdentity(publicConfig(getConfig()));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  getRuntime().catch((error: Error) => {
    console.error(`Start-up failed: ${error.message}`);
    process.exit(1);
  });
}

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "SAMEORIGIN",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(self), payment=(self)",
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  await getRuntime();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) responseHeaders.set(name, value);
  if (responseStatusCode === 405 && !responseHeaders.has("Allow")) responseHeaders.set("Allow", allowedMethods(request, remixContext));
  const isPublic = applyCachePolicy(request, responseStatusCode, responseHeaders);
  const nonce = (loadContext as StoreLoadContext | undefined)?.cspNonce;
  const cacheKey = pageCacheKey(request, responseStatusCode, remixContext, nonce !== undefined);
  if (cacheKey === null) return streamDocument(request, responseStatusCode, responseHeaders, remixContext, nonce);

  // Same URL and same loader data: the same HTML (see utils/page-cache.server.ts).
  let page = cachedPage(cacheKey);
  if (page) {
    // The data the loaders produced for this request is not needed: the page has it.
    remixContext.serverHandoffStream?.cancel().catch(() => {});
  } else {
    const html = await renderDocument(remixContext, request.url, nonce === undefined ? undefined : NONCE_PLACEHOLDER);
    page = storePage(cacheKey, html);
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (isPublic) {
    responseHeaders.set("ETag", page.etag);
    if (notModified(request, page.etag)) return new Response(null, { status: 304, headers: responseHeaders });
  }
  return new Response(pageHtml(page, nonce), { status: responseStatusCode, headers: responseHeaders });
}

/** The whole document as a string (for the page cache): every Suspense boundary resolved. */
function renderDocument(remixContext: EntryContext, url: string, nonce: string | undefined): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const body = new PassThrough();
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    body.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    body.on("error", reject);
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={url} abortDelay={streamTimeout} nonce={nonce} />,
      {
        nonce,
        onAllReady() {
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          reject(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000).unref();
  });
}

function streamDocument(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  nonce: string | undefined,
): Promise<Response> {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />,
      {
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
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // A request refused on purpose (404, 405...) is no server error worth a stack trace.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  console.error(error);
}
