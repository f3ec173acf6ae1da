import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { registerStoreIdentity } from "./components/layout/store-identity";
import { ConfigError, getConfig, publicConfig } from "./config.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./db/unavailable.server";
import { contentSecurityPolicy } from "./http/content-security-policy.server";
import { logError } from "./http/logger.server";
import { NonceContext } from "./http/nonce";
import { allowedMethods } from "./utils/allowed-methods.server";
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

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  await getRuntime();
  // The baseline headers (nosniff, referrer, framing, HSTS...) come from the HTTP server on every response (server/);
  // a page adds its script policy, keyed to this request's nonce.
  const nonce = loadContext?.cspNonce ?? randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(getConfig(), nonce));
  if (responseStatusCode === 405 && !responseHeaders.has("Allow")) responseHeaders.set("Allow", allowedMethods(request, remixContext));
  // A 503 (the database is unreachable) tells clients and crawlers when to come back; the page says it in words.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) {
    responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const page = (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(page, {
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
          logError("page streaming failed", error, { requestId: loadContext?.requestId, path: new URL(request.url).pathname });
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // A request refused on purpose (404, 405...) is no server error worth a stack trace.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  logError("request failed", error, { requestId: context?.requestId, method: request.method, path: new URL(request.url).pathname });
}
