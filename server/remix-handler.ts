import type { IncomingMessage, ServerResponse } from "node:http";
import { writeReadableStreamToWritable, type AppLoadContext } from "@remix-run/node";

export type FetchHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/** Thrown into a request body that grew past its limit while streaming. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * The request as the app sees it. The URL is built from the Host header the
 * server has already validated (never X-Forwarded-Host) and the scheme it
 * resolved; the body is counted as it streams, and past `bodyLimit` the
 * stream fails and `onOverflow` answers 413 before the app could read more.
 * Aborted when the client goes away before the response is complete.
 */
export function fetchRequestOf(
  req: IncomingMessage,
  res: ServerResponse,
  { origin, path, bodyLimit, onOverflow }: { origin: string; path: string; bodyLimit: number; onOverflow: () => void },
): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = limitedBody(req, bodyLimit, () => {
      controller.abort();
      onOverflow();
    });
    init.duplex = "half";
  }
  return new Request(`${origin}${path}`, init);
}

/** The request body as a web stream that stops reading from the socket at the limit (and whenever nobody reads it). */
function limitedBody(req: IncomingMessage, limit: number, onOverflow: () => void): ReadableStream<Uint8Array> {
  let size = 0;
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (settled) return;
          size += chunk.byteLength;
          if (size > limit) {
            settled = true;
            req.pause();
            onOverflow();
            controller.error(new BodyTooLargeError(limit));
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        req.once("error", (error) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        });
        req.pause();
      },
      pull() {
        if (!settled) req.resume();
      },
      cancel() {
        // The app stopped reading (readForm past its own limit, a route that takes no body): the rest of a body
        // within the limit is read and dropped, so the client can read the answer; past the limit the socket goes.
        settled = true;
        req.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > limit) req.socket.destroy();
        });
        req.resume();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

/** Writes the app's response; nothing when the server has already answered (a 413 mid-body) or the client left. */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.writableEnded || res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
