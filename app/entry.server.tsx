import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { registerStoreIdentity } from "./components/layout/store-identity";
import { ConfigError, getConfig, publicConfig } from "./config.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./db/unavailable.server";
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
  _loadContext: AppLoadContext,
) {
  await getRuntime();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) responseHeaders.set(name, value);
  if (responseStatusCode === 405 && !responseHeaders.has("Allow")) responseHeaders.set("Allow", allowedMethods(request, remixContext));
  // A 503 (the database is unreachable) tells clients and crawlers when to come back; the page says it in words.
  if (responseStatusCode === 503 && !responseHeaders.has("Retry-After")) {
    responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />, {
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
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // A request refused on purpose (404, 405...) is no server error worth a stack trace.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  console.error(error);
}
