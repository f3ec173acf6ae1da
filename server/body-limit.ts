import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { answersOversizeWithPage, BodyTooLargeError, bodyLimitFor, oversizeAnswer } from "../app/http/body-limits";
import { declaredLength } from "./guards";

/**
 * The request body's limit for this request: the route's (app/http/body-limits.ts),
 * or the declared length of a page's form a little over it, which is read whole
 * so the route's readForm answers with the store's own 413 page.
 */
export function bodyLimitOf(req: IncomingMessage, pathname: string): number {
  const routeLimit = bodyLimitFor(pathname);
  const declared = declaredLength(req.headers["content-length"]);
  return answersOversizeWithPage(declared, routeLimit, req.headers.accept) ? (declared as number) : routeLimit;
}

/**
 * Counts a request body as it streams to the app and, past its limit, answers
 * 413 and ends the app's body stream with a BodyTooLargeError: a body sent
 * without Content-Length (or with a false one) is never read into memory
 * beyond the limit. A declared length over the limit is refused before this
 * (server/app.ts, refuseEarly).
 *
 * The Remix adapter reads the request as a stream of `data` events
 * (createReadableStreamFromReadable); this counter listens first, on a request
 * kept paused until the app pulls, so it sees every chunk before the app does.
 */
export function limitRequestBody(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = bodyLimitOf(req, req.path);
    let size = 0;
    const count = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return;
      req.off("data", count);
      answerTooLarge(req, res, limit);
      // The adapter's stream fails with this (it listens for `error`), so the app reads no further; nobody listening: nobody reads.
      if (req.listenerCount("error") > 0) req.emit("error", new BodyTooLargeError(limit));
    };
    // Paused explicitly, a `data` listener does not start the flow: the app's first read does.
    req.pause();
    req.on("data", count);
    next();
  };
}

/** 413, then the connection is closed: the rest of the body is never read into memory. */
export function answerTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const answer = oversizeAnswer(new URL(req.url ?? "/", "http://x").pathname, limit);
  answerAndClose(req, res, 413, answer.body, answer.contentType);
}

/**
 * Answers a request whose body will not be read, then closes its connection: the client gets a
 * second to read the answer, and whatever it is still sending is dropped, never read into memory.
 */
export function answerAndClose(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string,
  contentType = "text/plain; charset=utf-8",
): void {
  req.pause();
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = status;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Connection", "close");
  res.end(body);
  res.once("finish", () => setTimeout(() => req.socket?.destroy(), 1000).unref());
}
